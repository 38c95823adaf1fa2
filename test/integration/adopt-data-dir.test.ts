/**
 * Adopting a queue left in the old per-user data directory (issue 13 item 5): real agents, real
 * SQLite files, the real mock API; the "system" data directory is a temp directory injected into
 * loadConfig (the real /var/lib/timeclock-kiosk is never touched).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { adoptLegacyQueue } from '../../src/agent/host/adopt-queue.js';
import { openAgent } from '../../src/agent/open-agent.js';
import { loadConfig, terminalIdOf, type LoadedConfig } from '../../src/config.js';
import { ensureTerminalIdFile, readTerminalIdFile, TERMINAL_ID_FILE } from '../../src/config-terminal-id.js';
import type { Logger } from '../../src/log.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { adoptDataDir } from '../../src/store/upkeep/adopt-data-dir.js';
import { DB_FILE_NAME, openDatabase } from '../../src/store/database.js';
import { Outbox } from '../../src/store/punches/outbox.js';
import { TOKEN_FILE_NAME, writePrivateFile } from '../../src/store/private-file.js';
import { testAgent } from '../helpers/agent.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/**
 * A box as the package leaves it: the system directory exists (empty), the old queue sits in the user's XDG directory.
 */
function box() {
  const t = tempDir('timeclock-adopt-');
  cleanups.push(t.cleanup);
  const sys = path.join(t.dir, 'var-lib-timeclock-kiosk');
  fs.mkdirSync(sys, { mode: 0o700 });
  const xdg = path.join(t.dir, 'xdg');
  return { root: t.dir, sys, xdg, legacy: path.join(xdg, 'timeclock-kiosk') };
}

/** Log lines, to check what an operator reads. */
function recordingLog(): Logger & { lines: Array<{ level: string; msg: string }> } {
  const lines: Array<{ level: string; msg: string }> = [];
  const at = (level: string) => (msg: string) => void lines.push({ level, msg });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A legacy queue written through the store: `sent` delivered punches and `unsent` waiting ones. */
function storeQueue(dir: string, unsent: number, sent = 0): void {
  const db = openDatabase(dir);
  const outbox = new Outbox(db);
  for (let i = 0; i < unsent + sent; i++) {
    const r = outbox.insert({
      capturedAt: 1_795_000_000_000 + i * 60_000,
      localDate: '2026-11-21',
      localTime: `08:${String(i).padStart(2, '0')}`,
      timeZone: 'America/Sao_Paulo',
      employeeKey: `E${i}`,
      employeeExternalId: `E${i}`,
      employeeName: `Employee ${i}`,
      credentialKind: 'badge',
      clockFlag: null,
    });
    if (i < sent && r.inserted) outbox.markSent(r.id, 1_795_000_100_000, `remote-${i}`, 'created');
  }
  expect(outbox.counts().sent).toBe(sent);
  db.close();
}

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const adoptedDirs = (b: { xdg: string }) =>
  fs.readdirSync(b.xdg).filter((n) => n.startsWith('timeclock-kiosk.adopted-'));
const fixedClock = { now: () => Date.UTC(2026, 0, 2, 3, 4, 5, 678) };

describe('adopting the queue of the old per-user data directory', () => {
  it('at start the agent takes over a queue left by an earlier run, token and all, and delivers what waited', async () => {
    const b = box();
    // Only the token kept in the old directory opens this API: the configured one is refused.
    const mock: MockServer = await startMockServer({
      seed: generatedSeed({ employees: 5, sites: 1 }),
      tokens: ['legacy-token'],
      rateLimit: { limit: 60, windowMs: 1_000 },
    });
    cleanups.push(() => mock.close());
    // The old screen kiosk: one punch delivered, then two taken while the network was down.
    const online = testAgent({ dataDir: b.legacy, mock, token: 'legacy-token' });
    await online.start({ awaitRosterIfEmpty: true });
    expect((await online.punch({ kind: 'badge', value: '100000' })).ok).toBe(true);
    await waitFor(() => mock.records().length === 1, 'the first punch on the mock');
    await online.stop();
    const offline = testAgent({ dataDir: b.legacy, mock: { url: 'http://127.0.0.1:9/v2.1' }, token: 'legacy-token' });
    await offline.start({ roster: false });
    expect((await offline.punch({ kind: 'badge', value: '100001' })).ok).toBe(true);
    expect((await offline.punch({ kind: 'badge', value: '100002' })).ok).toBe(true);
    await offline.stop();
    writePrivateFile(path.join(b.legacy, TOKEN_FILE_NAME), 'legacy-token');

    const loaded = loadConfig({
      env: {
        XDG_DATA_HOME: b.xdg,
        TIMECLOCK_API_URL: mock.url,
        TIMECLOCK_API_TOKEN: 'config-token-refused',
        TIMECLOCK_LOG_LEVEL: 'error',
      },
      systemDataDir: b.sys,
    });
    expect(loaded.config.dataDir).toBe(b.sys);
    expect(loaded.legacyDataDir).toBe(b.legacy);
    const run = await openAgent(loaded);
    cleanups.push(() => run.shutdown());
    const before = run.agent.status().queue;
    expect(before.sent).toBe(1);
    expect(before.pending + before.in_doubt).toBe(2);
    await run.agent.start({ roster: false });
    const out = await run.agent.flush({ maxWaitMs: 20_000 });
    expect(out.done).toBe(true);
    expect(
      mock
        .records()
        .map((r) => r.employee_external_id)
        .sort(),
    ).toEqual(['100000', '100001', '100002']);

    // The old directory is kept under a new name; the token came along, private.
    expect(fs.existsSync(b.legacy)).toBe(false);
    const kept = adoptedDirs(b);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^timeclock-kiosk\.adopted-\d{8}T\d{6}Z$/);
    expect(fs.existsSync(path.join(b.xdg, kept[0] as string, DB_FILE_NAME))).toBe(true);
    expect(fs.statSync(path.join(b.sys, TOKEN_FILE_NAME)).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(b.sys).filter((n) => n.includes('adopting'))).toEqual([]);
  });

  it('logs what it adopted (waiting and total, from and to) and names the old directory by the injected clock', async () => {
    const b = box();
    storeQueue(b.legacy, 3, 2);
    const log = recordingLog();
    const loaded = loadConfig({ env: { XDG_DATA_HOME: b.xdg }, systemDataDir: b.sys });
    // A demo adopts a demo queue only: this one is not.
    expect(await adoptLegacyQueue(loaded, fixedClock, log)).toMatchObject({ outcome: 'nothing' });
    const prod = loadConfig({
      env: { XDG_DATA_HOME: b.xdg, TIMECLOCK_API_URL: 'https://api.example.com/v2.1', TIMECLOCK_API_TOKEN: 't' },
      systemDataDir: b.sys,
    });
    const r = await adoptLegacyQueue(prod, fixedClock, log);
    expect(r).toMatchObject({
      outcome: 'adopted',
      waiting: 3,
      total: 5,
      from: b.legacy,
      to: b.sys,
      renamedTo: `${b.legacy}.adopted-20260102T030405Z`,
    });
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]?.level).toBe('info');
    expect(log.lines[0]?.msg).toContain(`3 punch(es) waiting to be sent, 5 in all, now in ${b.sys}`);
    expect(log.lines[0]?.msg).toContain(b.legacy);
    const db = openDatabase(b.sys);
    expect(new Outbox(db).counts()).toMatchObject({ pending: 3, sent: 2 });
    db.close();
  });

  it('punches still only in the WAL (as kill -9 leaves them) come along: the copy is a consistent backup, not a file copy', async () => {
    const b = box();
    const scratch = path.join(b.root, 'scratch');
    storeQueue(scratch, 0);
    const db = openDatabase(scratch);
    db.pragma('wal_autocheckpoint = 0');
    new Outbox(db).insert({
      capturedAt: 1_795_000_000_000,
      localDate: '2026-11-21',
      localTime: '09:00',
      timeZone: 'America/Sao_Paulo',
      employeeKey: 'W',
      employeeExternalId: 'W',
      employeeName: 'In the WAL',
      credentialKind: 'badge',
      clockFlag: null,
    });
    fs.mkdirSync(b.legacy, { recursive: true });
    for (const f of [DB_FILE_NAME, `${DB_FILE_NAME}-wal`])
      fs.copyFileSync(path.join(scratch, f), path.join(b.legacy, f));
    db.close();
    expect(fs.statSync(path.join(b.legacy, `${DB_FILE_NAME}-wal`)).size).toBeGreaterThan(0);
    const r = await adoptDataDir(b.legacy, b.sys, fixedClock);
    expect(r).toMatchObject({ outcome: 'adopted', waiting: 1, total: 1 });
    expect(fs.readdirSync(b.sys).filter((n) => n.startsWith(DB_FILE_NAME) || n.startsWith('.'))).toEqual([
      DB_FILE_NAME,
    ]);
    const adopted = openDatabase(b.sys);
    expect(new Outbox(adopted).counts().pending).toBe(1);
    adopted.close();
  });

  it('leaves a queue alone while a running agent holds it, with one log line', async () => {
    const b = box();
    storeQueue(b.legacy, 2);
    const lockJs = pathToFileURL(path.resolve('dist/src/store/upkeep/lock.js')).href;
    const holder = spawn(process.execPath, [
      '--input-type=module',
      '-e',
      `import { lockDataDir } from ${JSON.stringify(lockJs)}; lockDataDir(${JSON.stringify(b.legacy)}); console.log('locked'); setInterval(() => {}, 1000);`,
    ]);
    cleanups.push(() => void holder.kill('SIGKILL'));
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
      holder.once('exit', (code) => reject(new Error(`lock holder exited (${code})`)));
    });
    const before = sha(path.join(b.legacy, DB_FILE_NAME));
    const log = recordingLog();
    const loaded = loadConfig({
      env: { XDG_DATA_HOME: b.xdg, TIMECLOCK_API_URL: 'https://api.example.com/v2.1', TIMECLOCK_API_TOKEN: 't' },
      systemDataDir: b.sys,
    });
    const r = await adoptLegacyQueue(loaded, fixedClock, log);
    expect(r).toMatchObject({ outcome: 'not-adopted', reason: 'in-use' });
    expect(log.lines).toEqual([
      { level: 'warn', msg: expect.stringContaining(`running timeclock agent (pid ${holder.pid})`) },
    ]);
    expect(fs.existsSync(path.join(b.sys, DB_FILE_NAME))).toBe(false);
    expect(sha(path.join(b.legacy, DB_FILE_NAME))).toBe(before);
    expect(adoptedDirs(b)).toEqual([]);
  });

  it('never touches a data directory that has its own database, and says once that the old one is still there', async () => {
    const b = box();
    storeQueue(b.legacy, 2);
    storeQueue(b.sys, 1);
    const target = sha(path.join(b.sys, DB_FILE_NAME));
    const listing = fs.readdirSync(b.sys).sort();
    const log = recordingLog();
    const loaded = loadConfig({
      env: { XDG_DATA_HOME: b.xdg, TIMECLOCK_API_URL: 'https://api.example.com/v2.1', TIMECLOCK_API_TOKEN: 't' },
      systemDataDir: b.sys,
    });
    expect(await adoptLegacyQueue(loaded, fixedClock, log)).toMatchObject({
      outcome: 'not-adopted',
      reason: 'target-has-data',
    });
    expect(log.lines).toEqual([
      { level: 'warn', msg: expect.stringContaining(`${b.legacy} still holds a queue and was not adopted`) },
    ]);
    expect(sha(path.join(b.sys, DB_FILE_NAME))).toBe(target);
    expect(fs.readdirSync(b.sys).sort()).toEqual(listing);
    expect(fs.existsSync(path.join(b.legacy, DB_FILE_NAME))).toBe(true);
    expect(adoptedDirs(b)).toEqual([]);
  });

  it('a configured data directory adopts nothing, even when it is the system directory', async () => {
    const b = box();
    storeQueue(b.legacy, 2);
    const log = recordingLog();
    const loaded: LoadedConfig = loadConfig({
      env: {
        XDG_DATA_HOME: b.xdg,
        TIMECLOCK_DATA_DIR: b.sys,
        TIMECLOCK_API_URL: 'https://api.example.com/v2.1',
        TIMECLOCK_API_TOKEN: 't',
      },
      systemDataDir: b.sys,
    });
    expect(await adoptLegacyQueue(loaded, fixedClock, log)).toBeNull();
    expect(log.lines).toEqual([]);
    expect(fs.readdirSync(b.sys)).toEqual([]);
    expect(fs.existsSync(path.join(b.legacy, DB_FILE_NAME))).toBe(true);
  });

  it('an unreadable old database is reported and left where it is; nothing half-copied remains', async () => {
    const b = box();
    fs.mkdirSync(b.legacy, { recursive: true });
    fs.writeFileSync(
      path.join(b.legacy, DB_FILE_NAME),
      'this is not a database, only bytes where one should be'.repeat(100),
    );
    const r = await adoptDataDir(b.legacy, b.sys, fixedClock);
    expect(r).toMatchObject({ outcome: 'not-adopted', reason: 'unusable' });
    expect(r.message).toMatch(/cannot be read/);
    expect(
      fs
        .readdirSync(b.sys)
        .filter((n) => n.startsWith(DB_FILE_NAME) || n.includes('adopting') || n === TOKEN_FILE_NAME),
    ).toEqual([]);
    expect(fs.existsSync(b.legacy)).toBe(true);
  });

  it('a token file others may read is refused, not copied, and nothing is adopted', async () => {
    const b = box();
    storeQueue(b.legacy, 1);
    fs.writeFileSync(path.join(b.legacy, TOKEN_FILE_NAME), 'legacy-token', { mode: 0o644 });
    fs.chmodSync(path.join(b.legacy, TOKEN_FILE_NAME), 0o644);
    const r = await adoptDataDir(b.legacy, b.sys, fixedClock);
    expect(r).toMatchObject({ outcome: 'not-adopted', reason: 'unusable' });
    expect(r.message).toContain('chmod 600');
    expect(fs.existsSync(path.join(b.sys, DB_FILE_NAME))).toBe(false);
    expect(fs.existsSync(path.join(b.sys, TOKEN_FILE_NAME))).toBe(false);
    expect(fs.readdirSync(b.sys).filter((n) => n.includes('adopting'))).toEqual([]);
    expect(fs.existsSync(path.join(b.legacy, DB_FILE_NAME))).toBe(true);
  });
});

describe('the terminal id goes with the adopted queue', () => {
  it("a target without an id gets the old directory's: the terminal keeps its name in the fleet (readable, no temp file left)", async () => {
    const b = box();
    storeQueue(b.legacy, 1);
    const id = ensureTerminalIdFile(b.legacy);
    expect(id).toMatch(/^tc-/);
    expect(readTerminalIdFile(b.sys)).toBeNull();
    expect(await adoptDataDir(b.legacy, b.sys, fixedClock)).toMatchObject({ outcome: 'adopted' });
    expect(readTerminalIdFile(b.sys)).toBe(id);
    expect(fs.statSync(path.join(b.sys, TERMINAL_ID_FILE)).mode & 0o777).toBe(0o644);
    expect(fs.readdirSync(b.sys).filter((n) => n.includes('tmp') || n.includes('adopting'))).toEqual([]);
    // The agent started on the target goes on under that id.
    expect(terminalIdOf({ dataDir: b.sys })).toBe(id);
  });

  it('a target that has an id of its own keeps it', async () => {
    const b = box();
    storeQueue(b.legacy, 1);
    const old = ensureTerminalIdFile(b.legacy);
    const own = ensureTerminalIdFile(b.sys);
    expect(own).not.toBe(old);
    expect(await adoptDataDir(b.legacy, b.sys, fixedClock)).toMatchObject({ outcome: 'adopted' });
    expect(readTerminalIdFile(b.sys)).toBe(own);
  });

  it('an old directory without an id adopts as before, and the target makes its own at the first start', async () => {
    const b = box();
    storeQueue(b.legacy, 1);
    expect(await adoptDataDir(b.legacy, b.sys, fixedClock)).toMatchObject({ outcome: 'adopted' });
    expect(fs.existsSync(path.join(b.sys, TERMINAL_ID_FILE))).toBe(false);
  });
});
