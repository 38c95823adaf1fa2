/**
 * Receipts' evidence from the terminal's database: the journal's mark by NSR (store/journal/journal-read.ts)
 * and the punch behind it, for its name, zone and captured instant with seconds. Read-only, so the
 * command line can use it beside a running terminal.
 */
import type { Db } from '../../store/database.js';
import { JournalReader } from '../../store/journal/journal-read.js';
import type { ReceiptEvidence, ReceiptSource } from './receipts.js';
import type { ReceiptPunch } from './receipt.js';

type PunchFacts = {
  captured_at: number;
  time_zone: string;
  employee_name: string;
  local_date: string;
  local_time: string;
  anchored: number;
  held_reason: string | null;
};

/**
 * The 'reanchored' fact's detail (store/punches/punch-times.ts): `<date> <time> -> <date> <time> (…; clock adjustment
 * NSR <n>)`.
 */
const MOVED = /-> (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})/;
const ADJUSTMENT = /clock adjustment NSR (\d+)/;

/** A punch row as its receipt shows it: held for the manager's confirmation when its PIN was not verified. */
export function receiptPunch(p: {
  capturedAt: number;
  timeZone: string;
  employeeName: string;
  localDate: string;
  localTime: string;
  anchored: boolean;
  heldReason: string | null;
}): ReceiptPunch {
  return {
    capturedAt: p.capturedAt,
    timeZone: p.timeZone,
    employeeName: p.employeeName,
    localDate: p.localDate,
    localTime: p.localTime,
    anchored: p.anchored,
    awaitingConfirmation: p.heldReason === 'pin_unverified',
  };
}

export function journalReceiptSource(db: Db): ReceiptSource {
  const journal = new JournalReader(db);
  // By the punch's NSR: a capture matched later keeps its NSR, while its mark names only the unresolved row.
  const punchByNsr = db.prepare(
    'SELECT captured_at, time_zone, employee_name, local_date, local_time, anchored, held_reason FROM punch_history WHERE nsr = ?',
  );
  const unresolvedById = db.prepare('SELECT captured_at FROM unresolved_punches WHERE id = ?');
  return {
    byNsr(nsr: number): ReceiptEvidence | null {
      const mark = journal.mark(nsr);
      if (!mark) return null;
      const p = punchByNsr.get(nsr) as PunchFacts | undefined;
      // The latest re-timing of this punch, if any: the minute it was moved to and the type 4 record that says why.
      const moved =
        journal
          .factsOf(nsr)
          .filter((f) => f.event === 'reanchored')
          .at(-1)?.detail ?? null;
      const to = moved === null ? null : MOVED.exec(moved);
      const adj = moved === null ? null : ADJUSTMENT.exec(moved);
      const correction = {
        adjustmentNsr: adj ? Number(adj[1]) : null,
        movedTo: to ? { date: to[1] as string, time: to[2] as string } : null,
      };
      const chain = mark.chain;
      if (p) {
        const punch = receiptPunch({
          capturedAt: p.captured_at,
          timeZone: p.time_zone,
          employeeName: p.employee_name,
          localDate: p.local_date,
          localTime: p.local_time,
          anchored: p.anchored === 1,
          heldReason: p.held_reason,
        });
        return { line: mark.line, punch, correction, chain };
      }
      const u =
        mark.unresolvedId === null
          ? undefined
          : (unresolvedById.get(mark.unresolvedId) as { captured_at: number } | undefined);
      if (u)
        return { line: mark.line, punch: { capturedAt: u.captured_at, timeZone: null, employeeName: null }, chain };
      // Retention let the punch go (the journal is kept): the sealed line, and a correction the facts name.
      return { line: mark.line, punch: null, correction, chain };
    },
  };
}
