import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { vi } from 'vitest';

export const CLI = path.resolve('dist/src/cli.js');

export type CliRun = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** The built `timeclock` command with a clean environment plus `env`. */
export function spawnCli(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  const base: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TZ: 'UTC' };
  return spawn(process.execPath, [CLI, ...args], { env: { ...base, ...env }, stdio: 'pipe' });
}

/** Runs the command to completion, feeding `input` on standard input. */
export function runCli(args: string[], env: Record<string, string>, input = '', timeoutMs = 30_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `timeclock ${args.join(' ')} did not finish in ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      );
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

/** Resolves when a line matching `re` appears on the stream (or rejects after `timeoutMs`). */
export function lineMatching(stream: NodeJS.ReadableStream, re: RegExp, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = readline.createInterface({ input: stream });
    const timer = setTimeout(() => {
      rl.close();
      reject(new Error(`no line matching ${re} within ${timeoutMs} ms`));
    }, timeoutMs);
    rl.on('line', (line) => {
      if (re.test(line)) {
        clearTimeout(timer);
        rl.close();
        resolve(line);
      }
    });
  });
}

/**
 * The running terminal's whole screen address, as an operator gets it (`timeclock screen-url`, issue
 * 25: the log line has no token), for the same environment (hence the same data directory).
 */
export async function screenUrl(env: Record<string, string>): Promise<URL> {
  const r = await runCli(['screen-url'], env);
  if (r.code !== 0) throw new Error(`timeclock screen-url exited ${r.code}: ${r.stderr}`);
  return new URL(r.stdout.trim());
}

/** A command's function run in this process (`runAfd`, `runCli`…), with what it writes to stdout and stderr. */
export async function inProcess(
  run: () => number | Promise<number>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi
    .spyOn(process.stdout, 'write')
    .mockImplementation((s: string | Uint8Array) => ((stdout += String(s)), true));
  const err = vi
    .spyOn(process.stderr, 'write')
    .mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
  try {
    return { code: await run(), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
