import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportAfd } from '../../src/agent/exports/afd-export.js';
import type { AfdConfig } from '../../src/agent/exports/afd-header-plan.js';
import { loadAfdSigner } from '../../src/agent/exports/afd-signature.js';
import { opensslSignatureCheck } from '../../src/agent/journal/archive-signature-check.js';
import { archiveJournal, type ArchiverDeps } from '../../src/agent/journal/journal-archiver.js';
import { journalReceiptSource } from '../../src/agent/receipts/receipt-source.js';
import { RetentionWatch } from '../../src/agent/journal/retention-watch.js';
import { silentLogger } from '../../src/log.js';
import { DEFAULT_RETENTION, RetentionStore } from '../../src/store/upkeep/retention.js';
import { configSchema } from '../../src/config.js';
import { verifyAfd } from '../../src/domain/afd/verify.js';
import { localDateTime } from '../../src/domain/time/local-time.js';
import type { DurableDb } from '../../src/store/database.js';
import type { EvidenceJournal } from '../../src/store/journal/evidence-journal.js';
import { EmployerCache } from '../../src/store/roster/employers.js';
import { ARCHIVE_DIR_NAME } from '../../src/store/journal/journal-archive.js';
import { sha256Latin1 } from '../../src/store/journal/journal-facts.js';
import { JournalReader } from '../../src/store/journal/journal-read.js';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import { EMPLOYER, makeP12 } from '../helpers/afd.js';
import { journalRig, ZONE } from '../helpers/journal.js';

/**
 * Issue 26 item 9: the journal's old months leave the database for sealed archive files beside it,
 * and every reader (receipt, AFD export, verify) answers exactly as before; a crash between the
 * files and the database's commit loses nothing and duplicates nothing; a changed or missing
 * archive is named; archives past journal.keepYears go with a fact.
 */
const rig = journalRig();
afterEach(() => rig.cleanup());

/** 2026-01-05 09:00 São Paulo; marks every 4 h for `days` days (about 6 a day), each with a 'delivered' fact. */
const START = Date.parse('2026-01-05T12:00:00Z');
const NOW = Date.parse('2026-07-20T12:00:00Z');
const STEP = 4 * 3_600_000;

function fill(
  db: DurableDb,
  journal: EvidenceJournal,
  from: number,
  count: number,
  chainOf: (i: number) => string = () => '',
): number[] {
  const nsrs: number[] = [];
  db.transaction(() => {
    for (let i = from; i < from + count; i++) {
      const at = START + i * STEP;
      const local = localDateTime(at, ZONE);
      const nsr = journal.reserveNsr(count);
      journal.appendMark({
        nsr,
        at,
        localDate: local.date,
        localTime: local.time,
        zone: ZONE,
        recordedAt: at,
        cpf: i % 7 === 0 ? null : '529.982.247-25',
        punchId: 1_000 + i,
        chain: chainOf(i),
      });
      journal.facts.append(nsr, at + 60_000, 'delivered', `65f0a1b2c3d4e5f6a7b8c9${String(i % 100).padStart(2, '0')}`);
      nsrs.push(nsr);
    }
  }).immediate();
  journal.settle();
  return nsrs;
}

const config = (dataDir: string, afd: Record<string, unknown> = {}): AfdConfig =>
  configSchema.parse({ dataDir, employer: EMPLOYER, afd });

function deps(db: DurableDb, o: Partial<ArchiverDeps> = {}): ArchiverDeps {
  return {
    db,
    settings: { archiveAfterDays: 90, keepYears: 5 },
    now: () => NOW,
    mono: () => performance.now(),
    signer: () => null,
    pause: () => new Promise((r) => setImmediate(r)),
    stopped: () => false,
    ...o,
  };
}

const count = (db: DurableDb, table: string): number =>
  (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

async function afdBytes(db: DurableDb, dataDir: string, out: string): Promise<string[]> {
  fs.mkdirSync(out, { recursive: true });
  const r = await exportAfd(
    new JournalReader(db),
    config(dataDir),
    { from: '2026-01-01', to: '2026-07-31', dir: out, zone: ZONE, now: new Date(NOW), pageSize: 50, terminal: null },
    new EmployerCache(db),
  );
  return [r, ...(r.others ?? [])].map((x) => fs.readFileSync(x.file, 'latin1'));
}

describe('journal archives', () => {
  it('moves whole months past the horizon into 0600 files, and receipt, export and verify read them as before', async () => {
    const dir = rig.dir();
    const { db, journal } = rig.open(dir);
    db.prepare(
      "INSERT INTO employers (id, name, cnpj, fetched_at) VALUES ('ps1', 'EMPREITEIRA BOA OBRA LTDA', '11444777000161', 1)",
    ).run();
    const nsrs = fill(db, journal, 0, 1_000, (i) => (i % 3 === 0 ? 'cnpj:11444777000161' : ''));
    const before = await afdBytes(db, dir, path.join(dir, 'out-before'));
    expect(before).toHaveLength(2);
    const receipts = journalReceiptSource(db);
    const receiptBefore = receipts.byNsr(nsrs[10] as number);

    const r = await archiveJournal(deps(db));
    // 2026-07-20 - 90 days = 2026-04-21: January to March are archived, April on stays.
    expect(r.archives.map((a) => a.slice(0, 7))).toEqual(['2026-01', '2026-02', '2026-03']);
    const files = fs.readdirSync(path.join(dir, ARCHIVE_DIR_NAME)).sort();
    expect(files.filter((f) => f.endsWith('.jnl.gz'))).toHaveLength(3);
    expect(files.filter((f) => f.endsWith('.seal.json'))).toHaveLength(3);
    for (const f of files) expect(fs.statSync(path.join(dir, ARCHIVE_DIR_NAME, f)).mode & 0o777).toBe(0o600);
    const left = count(db, 'journal_marks');
    expect(left).toBeLessThan(1_000 - 400);
    expect(left + r.marks).toBe(1_000);
    expect(count(db, 'journal_facts') + r.facts).toBe(1_000);

    // The same receipt, the same AFD files byte for byte, the same journal whole.
    expect(journalReceiptSource(db).byNsr(nsrs[10] as number)).toEqual(receiptBefore);
    expect(await afdBytes(db, dir, path.join(dir, 'out-after'))).toEqual(before);
    for (const text of before) expect(verifyAfd(text, sha256Latin1).ok).toBe(true);
    const v = await verifyJournal(db);
    expect(v).toMatchObject({ ok: true, marks: 1_000, facts: 1_000 });

    // Marks after the archives chain on from them.
    fill(db, journal, 1_000, 10, (i) => (i % 3 === 0 ? 'cnpj:11444777000161' : ''));
    expect(await verifyJournal(db)).toMatchObject({ ok: true, marks: 1_010 });
  });

  it('the retention pass archives in its steps and gives the freed pages back', async () => {
    const dir = rig.dir();
    const { db, journal } = rig.open(dir);
    fill(db, journal, 0, 3_000);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pagesBefore = db.pragma('page_count', { simple: true }) as number;
    const watch = new RetentionWatch({
      store: new RetentionStore(db),
      policy: DEFAULT_RETENTION,
      clock: { now: () => Date.parse('2027-08-01T12:00:00Z') },
      mono: () => performance.now(),
      log: silentLogger,
      checkpointer: null,
      write: () => undefined,
      changed: () => undefined,
      firstAfterMs: 0,
      everyMs: 86_400_000,
      archive: (step) => archiveJournal({ ...deps(db, { now: () => Date.parse('2027-08-01T12:00:00Z') }), ...step }),
    });
    const record = await watch.runNow();
    await watch.stop();
    expect(record).toMatchObject({ outcome: 'done', error: null });
    // 3,000 marks every 4 h reach 2027-05: January 2026 to April 2027 are archived.
    expect((db.prepare('SELECT COUNT(*) AS n FROM journal_archives').get() as { n: number }).n).toBe(16);
    expect(count(db, 'journal_marks')).toBeLessThan(300);
    // The journal's pages (beyond those of an empty database: the schema, the other tables) shrink to under a third.
    const emptyPages = rig.open(rig.dir()).db.pragma('page_count', { simple: true }) as number;
    expect((db.pragma('page_count', { simple: true }) as number) - emptyPages).toBeLessThan(
      (pagesBefore - emptyPages) / 3,
    );
    expect(await verifyJournal(db)).toMatchObject({ ok: true, marks: 3_000, facts: 3_000 });
  });

  it('a chain and the facts whose every row was archived go on from the archived heads', async () => {
    const dir = rig.dir();
    const { db, journal } = rig.open(dir);
    fill(db, journal, 0, 300);
    const r = await archiveJournal(deps(db, { now: () => NOW + 365 * 86_400_000 }));
    expect(r.marks).toBe(300);
    expect(count(db, 'journal_marks')).toBe(0);
    expect(count(db, 'journal_facts')).toBe(0);
    const next = fill(db, journal, 300, 5);
    expect(next[0]).toBe(301);
    expect(await verifyJournal(db)).toMatchObject({ ok: true, marks: 305, facts: 305 });
  });

  it('a crash after the files are written and before the database says so loses nothing and duplicates nothing', async () => {
    const dir = rig.dir();
    const { db, journal } = rig.open(dir);
    fill(db, journal, 0, 1_000);
    const before = await afdBytes(db, dir, path.join(dir, 'out-before'));
    let crashes = 0;
    // The second archive's files are on the disk when the "process" dies: its rows are all still in the database.
    const crash = (stem: string) => {
      if (stem.startsWith('2026-02') && crashes++ === 0) throw new Error('killed');
    };
    await expect(archiveJournal(deps(db, { afterFilesWritten: crash }))).rejects.toThrow('killed');
    db.close();
    const again = rig.open(dir);
    expect(count(again.db, 'journal_archives')).toBe(1);
    const r = await archiveJournal(deps(again.db));
    expect(r.archives.map((a) => a.slice(0, 7))).toEqual(['2026-02', '2026-03']);
    expect(count(again.db, 'journal_archives')).toBe(3);
    expect(await afdBytes(again.db, dir, path.join(dir, 'out-after'))).toEqual(before);
    expect(await verifyJournal(again.db)).toMatchObject({ ok: true, marks: 1_000, facts: 1_000 });
  });

  it('kill -9 after the files are written, and again after the commit before the deletions: nothing lost, nothing twice', async () => {
    const dir = rig.dir();
    const first = rig.open(dir);
    fill(first.db, first.journal, 0, 1_000);
    const before = await afdBytes(first.db, dir, path.join(dir, 'out-before'));
    first.db.close();
    // A real process (the built archiver) killed by SIGKILL at the point `kill` names.
    const dist = (f: string) => JSON.stringify(path.resolve('dist/src', f));
    const life = (kill: string) =>
      spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `
        import { openDatabase } from ${dist('store/database.js')};
        import { archiveJournal } from ${dist('agent/journal/journal-archiver.js')};
        const db = openDatabase(${JSON.stringify(dir)});
        const archived = () => db.prepare('SELECT COUNT(*) AS n FROM journal_archives').get().n;
        let pauses = 0;
        const die = () => process.kill(process.pid, 'SIGKILL');
        await archiveJournal({
          db, settings: { archiveAfterDays: 90, keepYears: 5 }, now: () => ${NOW}, mono: () => performance.now(), signer: () => null, stopped: () => false,
          afterFilesWritten: (stem) => { if (${JSON.stringify(kill)} === 'files' && stem.startsWith('2026-02')) die(); },
          pause: async () => { if (${JSON.stringify(kill)} === 'deleting' && archived() === 1 && ++pauses === 1) die(); await new Promise((r) => setImmediate(r)); },
        });
        process.exit(3);`,
        ],
        { encoding: 'utf8', timeout: 60_000 },
      );
    for (const kill of ['deleting', 'files']) {
      const r = life(kill);
      expect(r.signal, r.stderr).toBe('SIGKILL');
      // Between the lives (after 'deleting': January committed to its archive, its rows still all here as leftovers):
      // read as one journal.
      const look = rig.open(dir);
      const through = (look.db.prepare('SELECT archived_nsr AS nsr FROM journal_meta').get() as { nsr: number }).nsr;
      if (kill === 'deleting') expect(count(look.db, 'journal_marks')).toBeGreaterThan(1_000 - through);
      expect(await afdBytes(look.db, dir, path.join(dir, `out-${kill}`))).toEqual(before);
      expect(await verifyJournal(look.db)).toMatchObject({ ok: true, marks: 1_000, facts: 1_000 });
      look.db.close();
    }
    const again = rig.open(dir);
    // The January archive committed; February's files were on the disk without their row: ignored, then written again.
    expect(count(again.db, 'journal_archives')).toBe(1);
    expect(await afdBytes(again.db, dir, path.join(dir, 'out-killed'))).toEqual(before);
    expect(await verifyJournal(again.db)).toMatchObject({ ok: true, marks: 1_000, facts: 1_000 });
    const r = await archiveJournal(deps(again.db));
    expect(r.archives.map((a) => a.slice(0, 7))).toEqual(['2026-02', '2026-03']);
    const archived = again.db.prepare('SELECT archived_nsr AS nsr FROM journal_meta').get() as { nsr: number };
    expect(count(again.db, 'journal_marks')).toBe(1_000 - archived.nsr);
    expect(await afdBytes(again.db, dir, path.join(dir, 'out-after'))).toEqual(before);
    expect(await verifyJournal(again.db)).toMatchObject({ ok: true, marks: 1_000, facts: 1_000 });
  });

  it('names an archive changed, a seal rewritten, and an archive missing', async () => {
    const dir = rig.dir();
    const { db, journal } = rig.open(dir);
    fill(db, journal, 0, 1_000);
    const r = await archiveJournal(deps(db));
    const feb = r.archives[1] as string;
    const gz = path.join(dir, ARCHIVE_DIR_NAME, `${feb}.jnl.gz`);
    const original = fs.readFileSync(gz);
    const changed = Buffer.from(original);
    changed[changed.length - 12] = (changed[changed.length - 12] as number) ^ 0xff;
    fs.writeFileSync(gz, changed);
    const v1 = await verifyJournal(db);
    expect(v1.ok).toBe(false);
    expect(v1.firstProblem?.message).toContain(`archive ${feb}`);
    expect(v1.firstProblem?.message).toMatch(/not the file that was sealed/);
    expect(() => journalReceiptSource(db).byNsr(Number(feb.slice(-9)) + 1)).toThrow(
      new RegExp(feb.replace(/\./g, '\\.')),
    );

    fs.rmSync(gz);
    const v2 = await verifyJournal(db);
    expect(v2.firstProblem?.message).toMatch(new RegExp(`archive ${feb.replace(/\./g, '\\.')}: .*missing`));
    fs.writeFileSync(gz, original);
    expect((await verifyJournal(db)).ok).toBe(true);

    const seal = path.join(dir, ARCHIVE_DIR_NAME, `${feb}.seal.json`);
    fs.writeFileSync(seal, fs.readFileSync(seal, 'utf8').replace('"count": ', '"count": 1'));
    expect((await verifyJournal(db)).firstProblem?.message).toMatch(/its seal .* is not the one the database recorded/);
  });

  it('signs each seal with afd.signingKey: the .p7s verifies with OpenSSL', async () => {
    const dir = rig.dir();
    const { db, journal } = rig.open(dir);
    fill(db, journal, 0, 200);
    const { p12, cert } = makeP12(dir, 'senha');
    const r = await archiveJournal(deps(db, { signer: () => loadAfdSigner(p12, 'senha', new Date()) }));
    expect(r.archives.map((a) => a.slice(0, 7))).toEqual(['2026-01', '2026-02']);
    const seal = (a: string) => path.join(dir, ARCHIVE_DIR_NAME, `${a}.seal.json`);
    for (const a of r.archives) {
      expect(fs.statSync(`${seal(a)}.p7s`).mode & 0o777).toBe(0o600);
      execFileSync(
        'openssl',
        [
          'cms',
          '-verify',
          '-binary',
          '-inform',
          'DER',
          '-in',
          `${seal(a)}.p7s`,
          '-content',
          seal(a),
          '-CAfile',
          cert,
          '-out',
          '/dev/null',
        ],
        { stdio: 'pipe' },
      );
    }
    expect(await verifyJournal(db, { checkSignature: opensslSignatureCheck })).toMatchObject({ ok: true, marks: 200 });
    // A signature of other bytes in its place: OpenSSL says it does not match the seal.
    const feb = seal(r.archives[1] as string);
    fs.writeFileSync(
      `${feb}.p7s`,
      await loadAfdSigner(p12, 'senha', new Date()).sign(Buffer.from('another seal'), new Date()),
    );
    expect((await verifyJournal(db, { checkSignature: opensslSignatureCheck })).firstProblem?.message).toMatch(
      /signature does not verify \(openssl cms -verify/,
    );
    fs.rmSync(`${feb}.p7s`);
    expect((await verifyJournal(db)).firstProblem?.message).toMatch(/signature .*missing/);
  });

  it('removes archives past journal.keepYears with a fact, and the journal still verifies', async () => {
    const dir = rig.dir();
    const { db, journal } = rig.open(dir);
    fill(db, journal, 0, 1_000);
    await archiveJournal(deps(db));
    const later = Date.parse('2031-02-15T12:00:00Z');
    fill(db, journal, 1_000, 5);
    const r = await archiveJournal(
      deps(db, { now: () => later, settings: { archiveAfterDays: 36_500 / 100, keepYears: 5 } }),
    );
    expect(r.removed.map((a) => a.slice(0, 7))).toEqual(['2026-01']);
    expect(fs.readdirSync(path.join(dir, ARCHIVE_DIR_NAME)).some((f) => f.startsWith('2026-01'))).toBe(false);
    const fact = db.prepare("SELECT detail FROM journal_facts WHERE event = 'archive_removed'").get() as {
      detail: string;
    };
    expect(fact.detail).toMatch(
      /^2026-01\.[0-9a-f]{32}\.000000001: NSR 1-\d+, facts 1-\d+; older than journal\.keepYears \(5\)/,
    );
    expect(await verifyJournal(db)).toMatchObject({ ok: true });
  });
});
