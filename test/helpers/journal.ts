import { localDateTime } from '../../src/domain/time/local-time.js';
import { openDatabase, type Db as AnyDb, type DurableDb as Db } from '../../src/store/database.js';
import { EvidenceJournal, type JournalOptions } from '../../src/store/journal/evidence-journal.js';
import { JournalReader } from '../../src/store/journal/journal-read.js';
import { migration18 } from '../../src/store/migrations/v18.js';
import { Outbox, type NewPunch } from '../../src/store/punches/outbox.js';
import { tempDir } from './temp.js';

export const ZONE = 'America/Sao_Paulo';
/** 2026-03-02 08:00 in São Paulo. */
export const BASE = Date.parse('2026-03-02T11:00:00Z');

/** A punch of employee `E<i>` captured `i` minutes after BASE. */
export function journalPunch(i: number, extra: Partial<NewPunch> = {}): NewPunch {
  const at = BASE + i * 60_000;
  const local = localDateTime(at, ZONE);
  return {
    capturedAt: at,
    localDate: local.date,
    localTime: local.time,
    timeZone: ZONE,
    employeeKey: `E${i}`,
    employeeExternalId: `X${i}`,
    employeeName: `Employee ${i}`,
    credentialKind: 'badge',
    clockFlag: null,
    cpf: '529.982.247-25',
    ...extra,
  };
}

export type OpenJournal = {
  db: Db;
  journal: EvidenceJournal;
  outbox: Outbox;
  reader: JournalReader;
  warnings: string[];
  judged: ReturnType<EvidenceJournal['open']>;
};

/** The terminal's database in `dir` with its journal opened as the agent opens it. */
export function openJournalled(dir: string, o: JournalOptions = {}): OpenJournal {
  const db = openDatabase(dir);
  const warnings: string[] = [];
  const journal = new EvidenceJournal(db, { warn: (m) => warnings.push(m), ...o });
  const judged = journal.open();
  return { db, journal, outbox: new Outbox(db, db, journal), reader: new JournalReader(db), warnings, judged };
}

/** Temp data directories and journals opened in them, all closed and removed by `cleanup()` (afterEach). */
export function journalRig(): {
  dir(): string;
  open(d: string, o?: JournalOptions): OpenJournal;
  defer(fn: () => void): void;
  cleanup(): void;
} {
  const undo: Array<() => void> = [];
  return {
    dir() {
      const t = tempDir();
      undo.push(t.cleanup);
      return t.dir;
    },
    open(d, o = {}) {
      const j = openJournalled(d, o);
      undo.push(() => j.db.open && j.db.close());
      return j;
    },
    defer: (fn) => void undo.push(fn),
    cleanup() {
      while (undo.length) undo.pop()?.();
    },
  };
}

/** Inserts punches `from`..`to`-1 and returns their NSRs. */
export function punchRange(outbox: Outbox, from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) {
    const r = outbox.insert(journalPunch(i));
    if (!r.inserted) throw new Error(`punch ${i} was a repeat`);
    out.push(r.nsr);
  }
  return out;
}

export const dropJournalTriggers = (db: AnyDb): void => {
  for (const t of [
    'journal_marks_append_only_u',
    'journal_marks_append_only_d',
    'journal_facts_append_only_u',
    'journal_facts_append_only_d',
  ])
    db.exec(`DROP TRIGGER ${t}`);
};

/**
 * Today's EvidenceJournal on a file of a version before 18 (a fixture written as an earlier release wrote it): the
 * chain tails migration 18 adds, so the journal can seal; `remove` gives the file its own version's schema back.
 */
export const chainTailsFor = (db: AnyDb): { remove: () => void } => {
  db.exec(migration18.slice(0, migration18.indexOf('DROP INDEX')));
  return { remove: () => db.exec('DROP TRIGGER journal_chain_tail; DROP TABLE journal_chain_tails;') };
};
