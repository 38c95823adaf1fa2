/**
 * A "Redis" on loopback that speaks enough RESP2 for ioredis to connect (HELLO refused, so the
 * client falls back to RESP2; CLIENT, AUTH, SELECT, INFO for the ready check, PING, QUIT) and then
 * answers the fleet's scripts (EVAL, EVALSHA, SCRIPT LOAD, ZREM) with whatever `answer` says: the
 * misbehaving Redis, proxy or stranger on the port of issue 24. Counts what it was asked.
 */
import net from 'node:net';

/** One RESP2 value as the fake writes it. */
export type Resp =
  { int: number } | { str: string } | { bulk: string | null } | { err: string } | { arr: Resp[] | null };

export type RespFake = {
  readonly port: number;
  readonly url: string;
  /** Script calls (EVAL/EVALSHA) answered so far. */
  scriptCalls(): number;
  /** Commands by name (lower case) answered so far. */
  counts(): Map<string, number>;
  close(): Promise<void>;
};

export function encode(v: Resp): string {
  if ('int' in v) return `:${v.int}\r\n`;
  if ('str' in v) return `+${v.str}\r\n`;
  if ('err' in v) return `-${v.err}\r\n`;
  if ('bulk' in v) return v.bulk === null ? '$-1\r\n' : `$${Buffer.byteLength(v.bulk)}\r\n${v.bulk}\r\n`;
  return v.arr === null ? '*-1\r\n' : `*${v.arr.length}\r\n${v.arr.map(encode).join('')}`;
}

/** Parses as many whole commands (arrays of bulk strings) as `buf` holds; returns them and the rest. */
function parseCommands(buf: Buffer): { commands: string[][]; rest: Buffer } {
  const commands: string[][] = [];
  let pos = 0;
  const line = (from: number): { text: string; next: number } | null => {
    const end = buf.indexOf('\r\n', from);
    return end === -1 ? null : { text: buf.toString('utf8', from, end), next: end + 2 };
  };
  outer: while (pos < buf.length) {
    const head = line(pos);
    if (!head) break;
    if (!head.text.startsWith('*')) {
      // An inline command (redis-cli style): words on one line.
      commands.push(head.text.split(' ').filter(Boolean));
      pos = head.next;
      continue;
    }
    const n = Number(head.text.slice(1));
    let p = head.next;
    const args: string[] = [];
    for (let i = 0; i < n; i++) {
      const len = line(p);
      if (!len) break outer;
      const size = Number(len.text.slice(1));
      if (buf.length < len.next + size + 2) break outer;
      args.push(buf.toString('utf8', len.next, len.next + size));
      p = len.next + size + 2;
    }
    commands.push(args);
    pos = p;
  }
  return { commands, rest: buf.subarray(pos) };
}

/**
 * `answer(command, args, n)`: the reply to a script call (EVAL/EVALSHA/ZREM…; n counts script
 * calls from 0), or undefined for the fake's default. `password`: AUTH must give it.
 */
export async function startRespFake(
  answer: (command: string, args: string[], n: number) => Resp | undefined,
  opts: { password?: string } = {},
): Promise<RespFake> {
  const counts = new Map<string, number>();
  let scripts = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let pending: Buffer = Buffer.alloc(0);
    let authed = opts.password === undefined;
    socket.on('data', (d: Buffer) => {
      const parsed = parseCommands(Buffer.concat([pending, d]));
      pending = parsed.rest;
      for (const [name = '', ...args] of parsed.commands) {
        const cmd = name.toLowerCase();
        counts.set(cmd, (counts.get(cmd) ?? 0) + 1);
        if (cmd === 'quit') {
          socket.end(encode({ str: 'OK' }));
          return;
        }
        socket.write(encode(reply(cmd, args)));
      }
    });
    function reply(cmd: string, args: string[]): Resp {
      switch (cmd) {
        case 'hello':
          return { err: "ERR unknown command 'HELLO'" }; // no RESP3: ioredis goes on in RESP2
        case 'auth':
          authed = args[args.length - 1] === opts.password;
          return authed ? { str: 'OK' } : { err: 'WRONGPASS invalid username-password pair or user is disabled.' };
        case 'client':
        case 'select':
          return { str: 'OK' };
      }
      if (!authed) return { err: 'NOAUTH Authentication required.' };
      switch (cmd) {
        case 'ping':
          return { str: 'PONG' };
        case 'info':
          return { bulk: '# Server\r\nredis_version:7.0.0\r\nredis_mode:standalone\r\nloading:0\r\n' };
        case 'script':
          return { bulk: '0000000000000000000000000000000000000000' };
        case 'time': {
          const ms = Date.now();
          return { arr: [{ bulk: String(Math.floor(ms / 1000)) }, { bulk: String((ms % 1000) * 1000) }] };
        }
        case 'eval':
        case 'evalsha':
          return answer(cmd, args, scripts++) ?? { err: 'ERR not a Redis' };
        default:
          return answer(cmd, args, -1) ?? { int: 0 };
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    scriptCalls: () => scripts,
    counts: () => new Map(counts),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
