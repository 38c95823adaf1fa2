/**
 * `timeclock data adopt --from DIR` as the Debian post-install runs it (the built CLI, a real
 * process), and the data directory the other commands print.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_DATA_DIR } from '../../src/config.js';
import { DB_FILE_NAME, openDatabase } from '../../src/store/database.js';
import { Outbox } from '../../src/store/punches/outbox.js';
import { TOKEN_FILE_NAME, writePrivateFile } from '../../src/store/private-file.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});

function dirs() {
  const t = tempDir('timeclock-cli-adopt-');
  cleanups.push(t.cleanup);
  return {
    root: t.dir,
    from: path.join(t.dir, 'home-kiosk', 'timeclock-kiosk'),
    to: path.join(t.dir, 'var-lib-timeclock-kiosk'),
    xdg: path.join(t.dir, 'xdg'),
  };
}

/** An old queue: `unsent` punches waiting and one delivered, and a token set on the admin screen. */
function oldQueue(dir: string, unsent: number): void {
  const db = openDatabase(dir);
  const outbox = new Outbox(db);
  for (let i = 0; i <= unsent; i++) {
    const r = outbox.insert({
      capturedAt: 1_795_000_000_000 + i * 60_000,
      localDate: '2026-11-21',
      localTime: `08:0${i}`,
      timeZone: 'America/Sao_Paulo',
      employeeKey: `E${i}`,
      employeeExternalId: `E${i}`,
      employeeName: `Employee ${i}`,
      credentialKind: 'badge',
      clockFlag: null,
    });
    if (i === 0 && r.inserted) outbox.markSent(r.id, 1_795_000_100_000, 'remote-0', 'created');
  }
  db.close();
  writePrivateFile(path.join(dir, TOKEN_FILE_NAME), 'admin-set-token');
}

const envFor = (d: { to: string; xdg: string }) => ({
  TIMECLOCK_DATA_DIR: d.to,
  XDG_DATA_HOME: d.xdg,
  TIMECLOCK_LOG_LEVEL: 'error',
});

describe('timeclock data adopt', () => {
  it('moves the queue into the data directory (exit 0), then has nothing to adopt (exit 0); status shows the punches there', async () => {
    const d = dirs();
    oldQueue(d.from, 2);
    const first = await runCli(['data', 'adopt', '--from', d.from], envFor(d));
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      `adopted the queue left in ${d.from}: 2 punch(es) waiting to be sent, 3 in all, now in ${d.to}`,
    );
    expect(fs.existsSync(d.from)).toBe(false);
    const kept = fs.readdirSync(path.dirname(d.from)).filter((n) => /^timeclock-kiosk\.adopted-\d{8}T\d{6}Z$/.test(n));
    expect(kept).toHaveLength(1);
    expect(first.stdout).toContain(path.join(path.dirname(d.from), kept[0] as string));
    expect(fs.readFileSync(path.join(d.to, TOKEN_FILE_NAME), 'utf8')).toBe('admin-set-token');
    expect(fs.statSync(path.join(d.to, TOKEN_FILE_NAME)).mode & 0o777).toBe(0o600);

    const status = await runCli(['status'], envFor(d));
    expect(status.code).toBe(0);
    expect(status.stdout.split('\n')[0]).toBe(`data: ${d.to}`);
    const json = JSON.parse((await runCli(['status', '--json'], envFor(d))).stdout) as {
      queue: Record<string, number>;
    };
    expect(json.queue).toMatchObject({ pending: 2, sent: 1 });

    const again = await runCli(['data', 'adopt', '--from', d.from], envFor(d));
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`nothing to adopt: no database in ${d.from}\n`);
  });

  it('a directory that never had a queue is "nothing to adopt" (exit 0), and the data directory is not created for it', async () => {
    const d = dirs();
    const res = await runCli(['data', 'adopt', '--from', path.join(d.root, 'never-existed')], envFor(d));
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^nothing to adopt: no database in /);
    expect(fs.existsSync(d.to)).toBe(false);
  });

  it('refuses (exit 1, one line) when the data directory already has a database, touching neither', async () => {
    const d = dirs();
    oldQueue(d.from, 1);
    oldQueue(d.to, 3);
    const mtime = fs.statSync(path.join(d.to, DB_FILE_NAME)).mtimeMs;
    const res = await runCli(['data', 'adopt', '--from', d.from], envFor(d));
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain(`${d.to} already has its own database`);
    expect(fs.statSync(path.join(d.to, DB_FILE_NAME)).mtimeMs).toBe(mtime);
    expect(fs.existsSync(path.join(d.from, DB_FILE_NAME))).toBe(true);
  });

  it('refuses (exit 1) an old database that cannot be read', async () => {
    const d = dirs();
    fs.mkdirSync(d.from, { recursive: true });
    fs.writeFileSync(path.join(d.from, DB_FILE_NAME), 'garbage '.repeat(1000));
    const res = await runCli(['data', 'adopt', '--from', d.from], envFor(d));
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^timeclock: data adopt: the queue in .* was not adopted: .* cannot be read/);
    expect(fs.existsSync(path.join(d.to, DB_FILE_NAME))).toBe(false);
  });

  it.each([
    [['data'], /usage: timeclock data adopt --from DIR/],
    [['data', 'adopt'], /data adopt needs --from DIR/],
    [['data', 'adopt', 'extra', '--from', '/tmp/x'], /usage: timeclock data adopt --from DIR/],
    [['data', 'move', '--from', '/tmp/x'], /usage: timeclock data adopt --from DIR/],
  ])('bad arguments exit 2: %j', async (args, message) => {
    const d = dirs();
    const res = await runCli(args, envFor(d));
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
  });

  it('bad arguments exit 2: the data directory itself, a directory holding it, or a file', async () => {
    const d = dirs();
    oldQueue(d.to, 1);
    for (const from of [d.to, `${d.to}/`, path.dirname(d.to)]) {
      const res = await runCli(['data', 'adopt', '--from', from], envFor(d));
      expect(res.code, from).toBe(2);
      expect(res.stderr).toMatch(/timeclock: data adopt: .*(is the data directory itself|is inside)/);
    }
    const file = await runCli(['data', 'adopt', '--from', path.join(d.to, DB_FILE_NAME)], envFor(d));
    expect(file.code).toBe(2);
    expect(file.stderr).toMatch(/--from must be a directory/);
  });

  it('is in the help text', async () => {
    const res = await runCli(['--help'], {});
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('timeclock data adopt --from DIR');
  });

  // The machine's own /var/lib/timeclock-kiosk cannot be injected into a real process (no variable
  // for it, by design): where it does not exist, the default printed is the per-user directory.
  it.skipIf(fs.existsSync(SYSTEM_DATA_DIR))('settings show prints the data directory chosen by default', async () => {
    const d = dirs();
    const res = await runCli(['settings', 'show', '--json'], { XDG_DATA_HOME: d.xdg });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ dataDir: path.join(d.xdg, 'timeclock-kiosk', 'demo'), demo: true });
  });
});
