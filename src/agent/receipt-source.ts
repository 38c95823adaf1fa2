/**
 * Receipts' evidence from the terminal's database: the journal's mark by NSR (store/journal-read.ts)
 * and the punch behind it, for its name, zone and captured instant with seconds. Read-only, so the
 * command line can use it beside a running terminal.
 */
import type { Db } from '../store/database.js';
import { JournalReader } from '../store/journal-read.js';
import type { ReceiptEvidence, ReceiptSource } from './receipts.js';

type PunchFacts = { captured_at: number; time_zone: string; employee_name: string };

export function journalReceiptSource(db: Db): ReceiptSource {
  const journal = new JournalReader(db);
  // By the punch's NSR: a capture matched later keeps its NSR, while its mark names only the unresolved row.
  const punchByNsr = db.prepare('SELECT captured_at, time_zone, employee_name FROM punches WHERE nsr = ?');
  const unresolvedById = db.prepare('SELECT captured_at FROM unresolved_punches WHERE id = ?');
  return {
    byNsr(nsr: number): ReceiptEvidence | null {
      const mark = journal.mark(nsr);
      if (!mark) return null;
      const p = punchByNsr.get(nsr) as PunchFacts | undefined;
      const chain = mark.chain;
      if (p) return { line: mark.line, punch: { capturedAt: p.captured_at, timeZone: p.time_zone, employeeName: p.employee_name }, chain };
      const u = mark.unresolvedId === null ? undefined : (unresolvedById.get(mark.unresolvedId) as { captured_at: number } | undefined);
      if (u) return { line: mark.line, punch: { capturedAt: u.captured_at, timeZone: null, employeeName: null }, chain };
      // Retention let the punch go (the journal is kept): the sealed line alone.
      return { line: mark.line, punch: null, chain };
    },
  };
}
