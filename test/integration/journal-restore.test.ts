import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { adoptDataDir } from '../../src/store/upkeep/adopt-data-dir.js';
import { DB_FILE_NAME } from '../../src/store/database.js';
import { backfillJournal } from '../../src/store/journal/journal-backfill.js';
import { NSR_SIDECAR_FILE } from '../../src/store/journal/journal-nsr.js';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import { migrations } from '../../src/store/migrations.js';
import { BASE, journalRig, punchRange, type OpenJournal } from '../helpers/journal.js';
import type { JournalOptions } from '../../src/store/journal/evidence-journal.js';

const rig = journalRig();
afterEach(() => rig.cleanup());
const dir = () => rig.dir();
const open = (d: string, o?: JournalOptions): OpenJournal => rig.open(d, o);

const sidecarOf = (d: string) => path.join(d, NSR_SIDECAR_FILE);
const events = (j: OpenJournal, event: string) =>
  j.db.prepare('SELECT nsr, detail FROM journal_facts WHERE event = ?').all(event) as { nsr: number; detail: string }[];

describe('NSRs are never given twice, also after a restore', () => {
  it('a database put back from an older copy continues after every NSR ever given, and a fact names the gap', async () => {
    const d = dir();
    const a = open(d);
    punchRange(a.outbox, 0, 3);
    a.db.close();
    const copy = path.join(d, 'copy.sqlite');
    fs.copyFileSync(path.join(d, DB_FILE_NAME), copy);

    const b = open(d);
    expect(punchRange(b.outbox, 3, 6)).toEqual([4, 5, 6]);
    b.db.close();
    for (const f of fs.readdirSync(d)) if (f.startsWith(`${DB_FILE_NAME}-`)) fs.rmSync(path.join(d, f));
    fs.copyFileSync(copy, path.join(d, DB_FILE_NAME));

    const c = open(d);
    expect(c.judged).toMatchObject({ kind: 'restored', from: 4 });
    const to = c.judged.kind === 'restored' ? c.judged.to : 0;
    expect(to).toBeGreaterThanOrEqual(6);
    expect(c.warnings.join('\n')).toMatch(/put back from an older copy: NSRs 4-\d+ may have been given/);
    expect(events(c, 'restored')).toEqual([
      {
        nsr: 4,
        detail: expect.stringMatching(new RegExp(`^gap 4-${to}: the database is older than the NSR reservation`)),
      },
    ]);
    const [next] = punchRange(c.outbox, 10, 11);
    expect(next).toBe(to + 1);
    expect(await verifyJournal(c.db)).toMatchObject({ ok: true, marks: 4, facts: 1 });
    c.db.close();
    // Recognised once: the next start finds sidecar and database agreeing.
    const again = open(d);
    expect(again.judged.kind).toBe('consistent');
    expect(events(again, 'restored')).toHaveLength(1);
  });

  it('a copy taken while the terminal ran is recognised when the run ended with a clean stop', async () => {
    const d = dir();
    const a = open(d);
    punchRange(a.outbox, 0, 3);
    const copy = path.join(d, 'live-copy.sqlite');
    a.db.exec(`VACUUM INTO '${copy}'`); // a consistent copy of the open database
    expect(punchRange(a.outbox, 3, 5)).toEqual([4, 5]); // the same reservation block
    a.journal.close();
    a.db.close();
    fs.copyFileSync(copy, path.join(d, DB_FILE_NAME));

    const b = open(d);
    expect(b.judged).toMatchObject({ kind: 'restored', from: 4 });
    const [next] = punchRange(b.outbox, 10, 11);
    expect(next).toBeGreaterThan(5);
    expect(await verifyJournal(b.db)).toMatchObject({ ok: true, marks: 4, facts: 1 });
  });

  it('a crash between the sidecar write and the commit is not a restore: the next NSR follows the last one given', async () => {
    const d = dir();
    let armed: 'throw' | 'keep' | null = null;
    let atCrash = '';
    const hook = () => {
      if (armed === null) return;
      atCrash = fs.readFileSync(sidecarOf(d), 'utf8');
      if (armed === 'throw') throw new Error('power cut');
    };
    const a = open(d, { block: 2, afterSidecarWrite: hook });
    expect(punchRange(a.outbox, 0, 2)).toEqual([1, 2]);
    armed = 'throw';
    expect(() => punchRange(a.outbox, 2, 3)).toThrow(/power cut/);
    a.db.close();
    fs.writeFileSync(sidecarOf(d), atCrash); // what the disk held at the crash: the raise pending, not committed
    expect(JSON.parse(atCrash)).toMatchObject({ reservedTo: 2, pending: 4 });

    armed = null;
    const b = open(d, { block: 2, afterSidecarWrite: hook });
    expect(b.judged.kind).toBe('raise_undone');
    expect(events(b, 'restored')).toEqual([]);
    expect(b.warnings).toEqual([]);
    expect(punchRange(b.outbox, 2, 4)).toEqual([3, 4]);
    armed = 'keep'; // the next raise commits; the crash comes before the sidecar says so
    expect(punchRange(b.outbox, 4, 5)).toEqual([5]);
    expect(JSON.parse(atCrash)).toMatchObject({ reservedTo: 4, pending: 6 });
    b.db.close();
    fs.writeFileSync(sidecarOf(d), atCrash);

    armed = null;
    const c = open(d);
    expect(c.judged.kind).toBe('raise_committed');
    expect(punchRange(c.outbox, 5, 6)).toEqual([6]);
    expect(events(c, 'restored')).toEqual([]);
    expect(await verifyJournal(c.db)).toMatchObject({ ok: true, marks: 6, facts: 0 });
  });

  it('a missing sidecar is written from the database; one of another journal loses to the database, with a warning', () => {
    const d = dir();
    const a = open(d);
    punchRange(a.outbox, 0, 2);
    const id = a.journal.info().journalId;
    a.db.close();
    fs.rmSync(sidecarOf(d));
    const b = open(d);
    expect(b.judged.kind).toBe('missing');
    expect(b.warnings.join('\n')).toMatch(/sidecar .* was missing/);
    expect(JSON.parse(fs.readFileSync(sidecarOf(d), 'utf8'))).toMatchObject({ journalId: id, pending: null });
    b.db.close();

    fs.writeFileSync(
      sidecarOf(d),
      JSON.stringify({ version: 1, journalId: 'f'.repeat(32), reservedTo: 900_000, pending: null }),
    );
    const c = open(d);
    expect(c.judged).toEqual({ kind: 'foreign', sidecarJournalId: 'f'.repeat(32) });
    expect(c.warnings.join('\n')).toMatch(/belongs to another journal/);
    expect(punchRange(c.outbox, 2, 3)).toEqual([3]);
    expect((JSON.parse(fs.readFileSync(sidecarOf(d), 'utf8')) as { journalId: string }).journalId).toBe(id);
  });
});

describe('a queue adopted from another data directory', () => {
  it('brings its NSR sidecar along: the journal goes on without a warning', async () => {
    const [from, to] = [dir(), dir()];
    const a = open(from);
    punchRange(a.outbox, 0, 3);
    a.journal.close();
    a.db.close();
    fs.rmSync(to, { recursive: true });
    const adopted = await adoptDataDir(from, to, { now: () => BASE });
    if (adopted.outcome === 'adopted') rig.defer(() => fs.rmSync(adopted.renamedTo, { recursive: true, force: true }));
    expect(adopted).toMatchObject({ outcome: 'adopted' });
    const b = open(to);
    expect(b.judged.kind).toBe('consistent');
    expect(b.warnings).toEqual([]);
    expect(punchRange(b.outbox, 3, 4)).toEqual([4]);
  });
});

describe('punches from before the journal (an upgraded terminal)', () => {
  it('are journalled once at open, in capture order, recorded at the upgrade, with a fact saying so', async () => {
    const d = dir();
    const old = new Database(path.join(d, DB_FILE_NAME));
    for (let v = 0; v < 10; v++) old.exec(migrations[v] as string);
    old.pragma('user_version = 10');
    old.prepare(`INSERT INTO roster_employees (id, full_name, cpf) VALUES ('E1', 'Ana', '52998224725')`).run();
    const insert = old.prepare(
      `INSERT INTO punches (id, captured_at, local_date, local_time, time_zone, employee_key, employee_name, credential_kind, state, next_attempt_at, updated_at, utc_minute)
       VALUES (?, ?, ?, ?, 'America/Sao_Paulo', ?, 'x', 'badge', 'sent', 0, 0, ?)`,
    );
    // Ids and capture order differ (a punch resolved later gets a later id).
    insert.run(1, BASE + 120_000, '2026-03-02', '08:02', 'E1', (BASE + 120_000) / 60_000);
    insert.run(2, BASE, '2026-03-02', '08:00', 'E2', BASE / 60_000);
    old
      .prepare(`INSERT INTO unresolved_punches (id, captured_at, code, credential_kind) VALUES (1, ?, 'NEW', 'badge')`)
      .run(BASE + 60_000);
    old.close();

    const upgradeAt = Date.parse('2026-06-01T15:30:00Z');
    const j = open(d);
    const result = backfillJournal(j.journal, { now: upgradeAt, unresolvedZone: 'America/Sao_Paulo' });
    expect(result).toMatchObject({ marks: 3, first: 1, last: 3 });
    expect(j.db.prepare('SELECT id, nsr FROM punches ORDER BY id').all()).toEqual([
      { id: 1, nsr: 3 },
      { id: 2, nsr: 1 },
    ]);
    expect(j.db.prepare('SELECT nsr FROM unresolved_punches').get()).toEqual({ nsr: 2 });
    const lines = [1, 2, 3].map((n) => j.reader.mark(n)?.line ?? '');
    expect(lines.map((l) => l.slice(10, 34))).toEqual([
      '2026-03-02T08:00:00-0300',
      '2026-03-02T08:01:00-0300',
      '2026-03-02T08:02:00-0300',
    ]);
    expect(lines.map((l) => l.slice(46, 70))).toEqual(Array(3).fill('2026-06-01T12:30:00-0300'));
    expect(lines.map((l) => l.slice(34, 46))).toEqual(['000000000000', '000000000000', '052998224725']);
    // Reached the journal after they were taken: off-line (docs/evidence-journal.md, "Who the REP-P is").
    expect(lines.map((l) => l[72])).toEqual(['1', '1', '1']);
    expect(events(j, 'backfilled')).toEqual([
      { nsr: 1, detail: '1-3: 3 punches taken before the evidence journal existed, journalled at upgrade' },
    ]);
    expect(await verifyJournal(j.db)).toMatchObject({ ok: true, marks: 3, facts: 1 });

    expect(backfillJournal(j.journal, { now: upgradeAt + 1, unresolvedZone: 'UTC' }).marks).toBe(0);
    expect(punchRange(j.outbox, 10, 11)).toEqual([4]);
    expect(j.reader.mark(4)?.line[72]).toBe('0'); // a capture is recorded as it is taken: on-line
  });
});
