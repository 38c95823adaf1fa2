import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

/**
 * A real redis-server on a free loopback port, without persistence (a restart starts empty, as a
 * crashed cache would). Tests kill it and start it again on the same port to cut Redis mid-run.
 */
export type RedisProcess = {
  readonly port: number;
  readonly url: string;
  /** SIGKILL: connections drop at once, nothing is saved. */
  kill(): Promise<void>;
  /** Starts redis-server again on the same port (after kill). */
  restart(): Promise<void>;
  /** SIGSTOP / SIGCONT: the server keeps its connections but answers nothing (commands time out). */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
};

export const REDIS_SERVER = process.env.TIMECLOCK_REDIS_SERVER ?? '/usr/bin/redis-server';

/** `password`: started with requirepass (`url` then has no password in it: add one to connect). */
export async function startRedis(opts: { password?: string } = {}): Promise<RedisProcess> {
  const port = await freePort();
  const launch = (p: number) => launchOn(p, opts.password);
  let child: ChildProcess | null = await launch(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill: async () => {
      await end(child, 'SIGKILL');
      child = null;
    },
    restart: async () => {
      if (child) throw new Error('redis-server is still running');
      child = await launch(port);
    },
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    stop: async () => {
      child?.kill('SIGCONT');
      await end(child, 'SIGTERM');
      child = null;
    },
  };
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/** Resolves once the server says it accepts connections; fails with its output otherwise. */
function launchOn(port: number, password: string | undefined): Promise<ChildProcess> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    ...(password ? ['--requirepass', password] : []),
  ];
  const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`redis-server did not start within 5 s:\n${out}`)), 5_000);
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(e);
    };
    child.on('error', fail);
    child.on('exit', (code) => fail(new Error(`redis-server exited (${code}):\n${out}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        child.removeAllListeners('error');
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolve(child);
      }
    });
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  });
}

function end(child: ChildProcess | null, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
