/**
 * Issue 27 item 5: a command line that explains itself, on the built `timeclock`: one command's
 * usage and examples (`COMMAND --help`, `help COMMAND`), `help`, `version`, a suggestion for a
 * mistyped command, and status instants in the site's wall time with how far from now.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const VERSION = (JSON.parse(fs.readFileSync(path.resolve('package.json'), 'utf8')) as { version: string }).version;
const cleanups: Array<() => void> = [];
afterAll(() => cleanups.forEach((c) => c()));
const lines = (text: string) => text.split('\n').filter(Boolean);

describe('timeclock help', () => {
  it('status --help is the status command alone, with examples; help status says the same', async () => {
    const own = await runCli(['status', '--help'], {});
    expect(own.code).toBe(0);
    expect(own.stdout).toMatch(/^usage:\n {2}timeclock status \[--json\] \[--config FILE\] +queue, connection/);
    expect(own.stdout).toMatch(/\nexamples:\n {2}timeclock status\n {2}timeclock status --json/);
    expect(own.stdout).not.toMatch(/timeclock (doctor|mock|flush)/);
    expect(lines(own.stdout).length).toBeLessThan(12);
    const viaHelp = await runCli(['help', 'status'], {});
    expect(viaHelp).toMatchObject({ code: 0, stdout: own.stdout });
    // Another command's page is its own: continuation lines included.
    const afd = await runCli(['afd', '--help'], {});
    expect(afd.stdout).toContain('[--out DIR|FILE] [--json] [--config FILE]');
    expect(afd.stdout).toContain('timeclock afd verify FILE');
    expect(afd.stdout).not.toContain('timeclock status');
  });

  it('help lists every command, and each one it lists has its own page', async () => {
    const page = await runCli(['help'], {});
    expect(page.code).toBe(0);
    const names = /\ncommands: (.+); timeclock help COMMAND/.exec(page.stdout)?.[1]?.split(', ') ?? [];
    expect(names).toEqual(expect.arrayContaining(['start', 'status', 'doctor', 'help', 'version', 'afd', 'held']));
    for (const name of ['start', 'doctor', 'held', 'mock', 'version']) {
      const own = await runCli(['help', name], {});
      expect(own.code, name).toBe(0);
      expect(own.stdout, name).toContain(`  timeclock ${name}`);
    }
  });

  it('version and --version print the version', async () => {
    for (const args of [['version'], ['--version'], ['-V']]) {
      const r = await runCli(args, {});
      expect(r).toMatchObject({ code: 0, stdout: `timeclock-kiosk ${VERSION}\n` });
    }
  });

  it('a mistyped command gets one line with the command meant, exit 2; an unrelated word no guess', async () => {
    const typo = await runCli(['stauts'], {});
    expect(typo.code).toBe(2);
    expect(lines(typo.stderr)).toEqual([
      "timeclock: unknown command 'stauts'; did you mean 'status'? (timeclock help lists the commands)",
    ]);
    expect((await runCli(['doctr'], {})).stderr).toContain("did you mean 'doctor'?");
    expect((await runCli(['help', 'recept'], {})).stderr).toContain("did you mean 'receipt'?");
    const unrelated = await runCli(['frobnicate'], {});
    expect(unrelated.code).toBe(2);
    expect(lines(unrelated.stderr)).toEqual([
      "timeclock: unknown command 'frobnicate' (timeclock help lists the commands)",
    ]);
  });

  it('a bad flag of a known command shows that command’s usage, not the whole page', async () => {
    const r = await runCli(['status', '--jsno'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^timeclock: Unknown option '--jsno'/);
    expect(r.stderr).toContain('  timeclock status [--json]');
    expect(r.stderr).not.toContain('timeclock mock');
  });
});

describe('timeclock status', () => {
  it('shows the next roster sync in the local time of the site with how far ahead, not UTC ISO', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const env = { TIMECLOCK_DATA_DIR: t.dir, TIMECLOCK_LOG_LEVEL: 'error', TIMECLOCK_TIMEZONE: 'America/Sao_Paulo' };
    expect((await runCli(['start', '--headless'], env, '', 60_000)).code).toBe(0);
    const status = await runCli(['status'], env);
    expect(status.code).toBe(0);
    const next = /^next sync: +(.*)$/m.exec(status.stdout)?.[1];
    expect(next).toMatch(/^(\d{4}-\d\d-\d\d )?\d\d:\d\d \(in (\d+ (d|h|min|s) ?)+\)/);
    expect(status.stdout).not.toMatch(/\d\dT\d\d:\d\d:\d\d\.\d{3}Z/);
  });
});
