import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { request } from 'undici';
import type { WindowRule } from '../../src/domain/rate/sliding-window.js';
import type { RequestLogEntry, StoredTimeRecord } from '../../src/mock/mock-server.js';

/** The mock API in its own process, as the real service is: its CPU work is not charged to the client under test. */
export type MockProcess = {
  url: string;
  origin: string;
  requests(): Promise<RequestLogEntry[]>;
  records(): Promise<StoredTimeRecord[]>;
  close(): Promise<void>;
};

const CLI = path.resolve('dist/src/cli.js');

/** `variants`: `timeclock mock --variant` values (e.g. 'page-cap=25'). */
export async function startMockProcess(opts: {
  employees: number;
  rule: WindowRule;
  variants?: string[];
}): Promise<MockProcess> {
  const child = spawn(
    process.execPath,
    [
      CLI,
      'mock',
      '--port',
      '0',
      '--employees',
      String(opts.employees),
      '--sites',
      '1',
      '--limit',
      String(opts.rule.limit),
      '--window-ms',
      String(opts.rule.windowMs),
      ...(opts.variants ?? []).flatMap((v) => ['--variant', v]),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('mock process did not start in 20 s')), 20_000);
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /listening at (\S+)/.exec(line);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`mock process exited early (${code})`)));
  });
  const origin = new URL(url).origin;
  const get = async <T>(p: string): Promise<T> => (await (await request(`${origin}${p}`)).body.json()) as T;
  return {
    url,
    origin,
    requests: () => get<RequestLogEntry[]>('/__mock/requests'),
    records: () => get<StoredTimeRecord[]>('/__mock/records'),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
