/**
 * A punch captured: its row, its mark in the evidence journal and its first journal lines, written
 * in one IMMEDIATE transaction on the durable connection. Apart from the outbox (whose `insert` calls
 * it) because it is the one write that creates a punch; every other outbox write changes one.
 */
import type { DurableDb } from '../database.js';
import type { EvidenceJournal } from '../journal/evidence-journal.js';
import type { outboxStatements } from './outbox-statements.js';
import type { InsertOutcome, NewPunch, PunchRow } from './punch-row.js';
import type { PunchWriter } from './punch-writer.js';

/** The outbox's parts a capture writes through: all on the durable connection. */
export type CaptureParts = {
  db: DurableDb;
  journal: EvidenceJournal;
  durable: PunchWriter;
  stmts: ReturnType<typeof outboxStatements>;
};

/**
 * The capture's transaction, made once: it inserts a punch, or returns the one the same employee already has in the
 * same minute (the UTC minute: a DST fall-back shows one local minute twice, an hour apart, and those are two
 * punches; the second is kept, sent and flagged as colliding for status).
 */
export function punchInserter(c: CaptureParts): (p: NewPunch) => InsertOutcome {
  // Made once: better-sqlite3 builds a transaction's wrappers at each `db.transaction` (about 10 µs a punch).
  const tx = c.db.transaction((p: NewPunch): InsertOutcome => {
    const utcMinute = Math.floor(p.capturedAt / 60_000);
    const t = p.time;
    const collides =
      p.mayRepeatLocalMinute === true &&
      c.stmts.sameLocalMinute.get(p.employeeKey, p.localDate, p.localTime) !== undefined;
    const nsr = p.nsr ?? c.journal.reserveNsr();
    const row = c.stmts.insert.get({
      ...p,
      heldReason: p.heldReason ?? null,
      utcMinute,
      collides: collides ? 1 : 0,
      // Deadlines run on the terminal's own clock (moved at its steps); the instant recorded and
      // sent is the service-anchored one. A clock 2 h slow must not make a new punch due in 2 h.
      deadlineNow: t?.wall ?? p.capturedAt,
      wallAt: t?.wall ?? null,
      monoAt: t?.mono ?? null,
      bootId: t?.bootId ?? null,
      anchored: t && !t.anchored ? 0 : 1,
      nsr,
    }) as { id: number; collides: number } | undefined;
    if (row) {
      let line: string | null = null;
      if (p.nsr == null) {
        line = c.journal.appendMark({
          nsr,
          at: p.capturedAt,
          localDate: p.localDate,
          localTime: p.localTime,
          zone: p.timeZone,
          recordedAt: p.capturedAt,
          cpf: p.cpf ?? null,
          punchId: row.id,
          chain: p.chain ?? '',
        }).line;
      }
      c.durable.journal.run(
        row.id,
        p.capturedAt,
        'captured',
        `${p.credentialKind} ${p.timeZone}${p.clockFlag ? ` clock:${p.clockFlag}` : ''}`,
      );
      if (p.heldReason) {
        c.durable.journal.run(row.id, p.capturedAt, 'held', p.heldReason);
        c.durable.facts.append(nsr, p.capturedAt, 'held', p.heldReason);
      }
      if (row.collides)
        c.durable.journal.run(row.id, p.capturedAt, 'local_minute_collision', `${p.localDate} ${p.localTime}`);
      return { inserted: true, id: row.id, nsr, line };
    }
    return { inserted: false, existing: c.stmts.byMinute.get(p.employeeKey, utcMinute, p.localTime) as PunchRow };
  });
  return (p) => {
    try {
      // IMMEDIATE: the journal's next NSR and previous hash are read here, before the writes.
      return tx.immediate(p);
    } finally {
      c.journal.settle();
    }
  };
}
