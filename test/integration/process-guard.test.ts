import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const GUARD = pathToFileURL(path.resolve('dist/src/agent/host/process-guard.js')).href;

/** A Node process that lets a rejection and an exception escape, with or without the guard. */
function escapeBoth(guarded: boolean) {
  const script = `
    import { installProcessGuard } from ${JSON.stringify(GUARD)};
    const log = { debug() {}, info() {}, warn() {}, error: (m, f) => console.log('logged:', m, f.error) };
    if (${guarded}) installProcessGuard(log, (m) => console.log('noted:', m));
    Promise.reject(new Error('page cut mid-body'));
    setTimeout(() => { throw new Error('callback bug'); }, 10);
    setTimeout(() => { console.log('still taking punches'); process.exit(0); }, 200);
  `;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 10_000 });
}

describe('the process guard', () => {
  it('logs and notes what escapes, and the terminal keeps running', () => {
    const r = escapeBoth(true);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/logged: unhandled rejection; the terminal keeps running page cut mid-body/);
    expect(r.stdout).toMatch(/noted: uncaught exception: callback bug/);
    expect(r.stdout).toMatch(/still taking punches/);
  });

  it('without it, the same rejection ends the process (what systemd would restart into a loop)', () => {
    const r = escapeBoth(false);
    expect(r.status).not.toBe(0);
    expect(r.stdout).not.toMatch(/still taking punches/);
  });
});
