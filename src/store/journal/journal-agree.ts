/**
 * Does the journal agree with what else records a punch? Each mark against the punch row that
 * carries its NSR (its time, and its employee's CPF in the roster), and the chain's end against
 * the head recorded outside the database (store/journal/journal-nsr.ts). A tail rewritten and re-hashed by
 * the public rule keeps a whole chain; it does not keep these.
 */
import { afdInstantOf } from '../../domain/afd/clock-record.js';
import { parseMark } from '../../domain/afd/mark.js';
import type { JournalHead } from './journal-nsr.js';

/** As store/journal/journal-verify.ts reports it (declared here too: that module imports this one). */
type JournalProblem = { nsr?: number; message: string };

/** The 'reanchored' fact's detail: `<date> <time> -> <date> <time> (…)` (store/punches/punch-times.ts). */
export const REANCHORED_MOVE = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) -> (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})/;

export type MarkPunchRow = {
  nsr: number;
  line: unknown;
  punch_id: number | null;
  local_date: string | null;
  local_time: string | null;
  captured_at: number | null;
  employee_key: string | null;
  roster_cpf: string | null;
};

/**
 * The mark's time and CPF against its punch row. The row may differ where the journal says why: a
 * 'reanchored' fact moving exactly the mark's minute to the row's (the clock was wrong), or the
 * same instant in another zone (a capture the roster did not know yet, dated in the site's zone).
 */
export function checkMarkAgainstPunch(
  r: MarkPunchRow,
  move: { from: string; to: string } | null,
): JournalProblem | null {
  if (r.punch_id === null || typeof r.line !== 'string') return null;
  const parsed = parseMark(r.line);
  if (!parsed.ok) return null;
  const m = parsed.mark;
  const marked = `${m.markedAt.slice(0, 10)} ${m.markedAt.slice(11, 16)}`;
  const row = `${r.local_date} ${r.local_time}`;
  if (marked !== row) {
    const explained = move !== null && move.from === marked && move.to === row;
    const sameInstant =
      r.captured_at !== null && Math.floor(r.captured_at / 60_000) * 60_000 === afdInstantOf(m.markedAt);
    if (!explained && !sameInstant) {
      return {
        nsr: r.nsr,
        message: `NSR ${r.nsr}: the mark says ${marked}, its punch (row ${r.punch_id}) ${row}, and no fact explains it: one of them was changed after it was written`,
      };
    }
  }
  const cpf = (r.roster_cpf ?? '').replace(/\D/g, '');
  if (m.cpf !== null && /^\d{11}$/.test(cpf) && cpf !== m.cpf) {
    return {
      nsr: r.nsr,
      message: `NSR ${r.nsr}: the mark's CPF is not the CPF of its punch's employee (${r.employee_key ?? '?'}, row ${r.punch_id})`,
    };
  }
  return null;
}

/**
 * The chain's end against a head recorded outside the database; `hash`: the walked mark's at the head's NSR (null:
 * none).
 */
export function checkHead(
  h: { where: string; head: JournalHead },
  hash: string | null,
  lastNsr: number,
  gaps: ReadonlyMap<number, number>,
): JournalProblem | null {
  const nsr = h.head.nsr;
  const inGap = [...gaps].some(([from, to]) => from <= nsr && nsr <= to);
  if (inGap) return null;
  if (nsr > lastNsr) {
    return {
      nsr,
      message: `the journal ends at NSR ${lastNsr}, but ${h.where} (kept outside the database) names NSR ${nsr}: marks at the end were deleted, or the database was put back unnoticed`,
    };
  }
  if (hash !== null && hash.toLowerCase() !== h.head.hash.toLowerCase()) {
    return {
      nsr,
      message: `NSR ${nsr}: its hash is not the one ${h.where} recorded outside the database when it was written (the record was rewritten and its hash recomputed)`,
    };
  }
  return null;
}
