import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Crash and CLI tests run the built `timeclock` command in child processes: build it first, so a
 * test never exercises a stale dist/ (whether started by `npm test` or `npx vitest`).
 */
export default function setup(): void {
  const tsc = path.resolve('node_modules/typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { stdio: 'inherit' });
}
