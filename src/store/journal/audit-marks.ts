import { parseMark } from '../../domain/afd/mark.js';
import { isValidTimeZone } from '../../domain/time/local-time.js';
import type { WallZone } from '../../domain/time/record-time.js';
import type { Db } from '../database.js';
import { JournalReader, type StoredMark } from './journal-read.js';

/** Who the service should hold a mark for: the roster's `_id` (or `ext:<external_id>`) and the external id. */
export type AuditEmployee = { key: string; externalId: string | null };

/**
 * A journal mark as the audit compares it (sync/reads/audit-compare.ts): which employee, and which minute
 * the service should hold. `problem` says why it cannot be compared at all (nobody known, a damaged line).
 */
export type AuditMark = {
  nsr: number;
  /** `YYYY-MM-DDTHH:MM` as sent: the punch row's (recomputed on the service's clock if it was), else the mark's. */
  minute: string | null;
  employee: AuditEmployee | null;
  problem: string | null;
  /**
   * The journal says delivered (true), not (yet) delivered (false), or cannot tell (null: a pruned punch without the
   * fact).
   */
  delivered: boolean | null;
  /** The punch's state now; 'pruned' once retention deleted it, 'unresolved' for a capture nobody was found for. */
  state: string;
  /** The zone `minute` is wall time of: the punch's, else the mark's offset (records with an offset are read in it). */
  where: WallZone;
};

type PunchOfMark = {
  employee_key: string;
  employee_external_id: string | null;
  local_date: string;
  local_time: string;
  time_zone: string;
  state: string;
  held_reason: string | null;
};

const MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
/** The 'reanchored' fact's detail: `<date> <time> -> <date> <time> (…)` (store/punches/outbox.ts). */
const REANCHORED = /-> (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})/;

/** The offset of an AFD date-time (`…:00-0300`), in minutes east of UTC. */
function markOffset(markedAt: string): number {
  const z = markedAt.slice(-5);
  return (z[0] === '-' ? -1 : 1) * (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5)));
}

/**
 * Reads the journal's marks of a date range with what the audit needs of each: the punch row that
 * carries its NSR while retention keeps it, else the roster by the mark's CPF and the journal's
 * facts. Read-only, any connection.
 */
export class AuditMarks {
  private readonly reader: JournalReader;
  private readonly stmts;

  constructor(db: Db) {
    this.reader = new JournalReader(db);
    this.stmts = {
      punch: db.prepare(
        'SELECT employee_key, employee_external_id, local_date, local_time, time_zone, state, held_reason FROM punch_history WHERE nsr = ?',
      ),
      // The roster keeps the CPF as the service wrote it: bare digits or masked.
      byCpf: db.prepare('SELECT id, external_id FROM roster_employees WHERE cpf = ? OR cpf = ? LIMIT 2'),
    };
  }

  /** Every mark dated `from`..`to` (YYYY-MM-DD, inclusive), in NSR order. */
  *marks(from: string, to: string): Generator<AuditMark> {
    for (const m of this.reader.iterateMarksInDates(from, to)) yield this.resolve(m);
  }

  private resolve(m: StoredMark): AuditMark {
    const parsed = parseMark(m.line);
    if (!parsed.ok)
      return {
        nsr: m.nsr,
        minute: null,
        employee: null,
        problem: `the mark cannot be read: ${parsed.problem}`,
        delivered: null,
        state: 'unreadable',
        where: { offsetMinutes: 0 },
      };
    const where: WallZone = { offsetMinutes: markOffset(parsed.mark.markedAt) };
    const p = this.stmts.punch.get(m.nsr) as PunchOfMark | undefined;
    if (p) {
      const minute = `${p.local_date}T${p.local_time}`;
      return {
        nsr: m.nsr,
        minute: MINUTE.test(minute) ? minute : null,
        employee: { key: p.employee_key, externalId: p.employee_external_id },
        problem: MINUTE.test(minute) ? null : `the punch's local time '${minute}' is not a minute`,
        // A held punch a person took as delivered is 'sent'; one disputed stays held and is never sent.
        delivered: p.state === 'sent',
        state: p.state === 'held' && p.held_reason ? `held (${p.held_reason})` : p.state,
        where: isValidTimeZone(p.time_zone) ? { zone: p.time_zone } : where,
      };
    }
    const facts = this.reader.factsOf(m.nsr);
    const reanchored = [...facts].reverse().find((f) => f.event === 'reanchored');
    const moved = reanchored ? REANCHORED.exec(reanchored.detail) : null;
    const minute = moved ? `${moved[1]}T${moved[2]}` : parsed.mark.markedAt.slice(0, 16);
    const state = m.punchId === null && !facts.some((f) => f.event === 'resolved') ? 'unresolved' : 'pruned';
    const delivered = facts.some((f) => f.event === 'delivered') ? true : state === 'unresolved' ? false : null;
    const cpf = parsed.mark.cpf;
    if (cpf === null) {
      const why =
        state === 'unresolved' ? 'a capture no employee was found for' : 'its punch was pruned and the mark has no CPF';
      return { nsr: m.nsr, minute, employee: null, problem: `no known employee: ${why}`, delivered, state, where };
    }
    const masked = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
    const found = this.stmts.byCpf.all(cpf, masked) as { id: string; external_id: string | null }[];
    if (found.length !== 1) {
      const why =
        found.length === 0 ? 'nobody in the roster has its CPF' : 'more than one employee in the roster has its CPF';
      return {
        nsr: m.nsr,
        minute,
        employee: null,
        problem: `no known employee: ${state === 'unresolved' ? 'an unresolved capture' : 'its punch was pruned'} and ${why}`,
        delivered,
        state,
        where,
      };
    }
    const e = found[0] as { id: string; external_id: string | null };
    return {
      nsr: m.nsr,
      minute,
      employee: { key: e.id, externalId: e.external_id },
      problem: null,
      delivered,
      state,
      where,
    };
  }
}
