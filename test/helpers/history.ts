/**
 * A site's history made fast: delivered punches (and their journal) written straight into the
 * tables in one transaction, as a year of a terminal's work leaves them. Plain code (no vitest):
 * the status bench uses it too.
 */
import type { Db } from '../../src/store/database.js';
import type { EvidenceJournal } from '../../src/store/journal/evidence-journal.js';
import type { RosterEmployee } from '../../src/store/roster/roster.js';

const DAY_MS = 86_400_000;
/** 2025-01-06 11:00 UTC, 08:00 in São Paulo. */
const FIRST_DAY = Date.UTC(2025, 0, 6, 11, 0);

export function siteEmployee(i: number): RosterEmployee {
  return {
    id: `emp-${i}`,
    external_id: String(10_000 + i),
    full_name: `Employee ${String(i).padStart(4, '0')}`,
    cpf: null,
    registration_number: `R${i}`,
    timezone: 'America/Sao_Paulo',
    // A few unfit ones, so roster health has something to say.
    work_schedule: i % 97 === 0 ? null : 'ws-1',
    payment_source: i % 89 === 0 ? null : 'ps-1',
    allow_api_record: i % 101 === 0 ? 0 : 1,
    timezone_invalid: null,
  };
}

export type History = { punches: number; journal: number; lastCapturedAt: number };

/**
 * `punches` delivered punches of `employees` people, two a working day (in at 08:00, out at 17:00
 * São Paulo), oldest first; with `journal`, the three journal rows each one leaves (captured,
 * sending, sent); `keyOf` names employee e's key (default `emp-<e>`). With `evidence`, each punch's
 * mark and its 'delivered' fact, as the terminal writes them (without: punches from before the
 * evidence journal, journalled at the agent's next open). One transaction: 200,000 rows take a few seconds.
 */
export function fillDelivered(
  db: Db,
  o: {
    punches: number;
    employees: number;
    journal: boolean;
    keyOf?: (e: number) => string;
    evidence?: EvidenceJournal;
  },
): History {
  const keyOf = o.keyOf ?? ((e: number) => `emp-${e}`);
  const punch = db.prepare(
    `INSERT INTO punches (captured_at, local_date, local_time, time_zone, employee_key, employee_external_id, employee_name,
       credential_kind, state, attempts, next_attempt_at, remote_id, sent_at, updated_at, utc_minute, nsr)
     VALUES (?, ?, ?, 'America/Sao_Paulo', ?, ?, ?, 'badge', 'sent', 1, ?, ?, ?, ?, ?, ?)`,
  );
  const journal = db.prepare('INSERT INTO punch_journal (punch_id, at, event, detail) VALUES (?, ?, ?, ?)');
  let last = 0;
  // One transaction of this size outgrows the terminal's 4 MB page cache, and every spill is then
  // paid again for each row's counter trigger: a bigger cache for the fill only.
  const cache = db.pragma('cache_size', { simple: true }) as number;
  db.pragma('cache_size = -131072');
  db.transaction(() => {
    for (let n = 0; n < o.punches; n++) {
      const e = n % o.employees;
      const slot = Math.floor(n / o.employees);
      const day = Math.floor(slot / 2);
      // Weekends off: five working days in each seven.
      const at = FIRST_DAY + (day + 2 * Math.floor(day / 5)) * DAY_MS + (slot % 2) * 9 * 3_600_000 + e * 1_000;
      const local = new Date(at - 3 * 3_600_000).toISOString();
      const sentAt = at + 800;
      const nsr = o.evidence ? o.evidence.reserveNsr() : null;
      const [date, time] = [local.slice(0, 10), local.slice(11, 16)];
      const id = Number(
        punch.run(
          at,
          date,
          time,
          keyOf(e),
          String(10_000 + e),
          `Employee ${e}`,
          at,
          `srv-${n}`,
          sentAt,
          sentAt,
          Math.floor(at / 60_000),
          nsr,
        ).lastInsertRowid,
      );
      if (o.evidence && nsr !== null) {
        o.evidence.appendMark({
          nsr,
          at,
          localDate: date,
          localTime: time,
          zone: 'America/Sao_Paulo',
          recordedAt: at,
          cpf: null,
          punchId: id,
        });
        // as long as a service _id
        o.evidence.facts.append(nsr, sentAt, 'delivered', `srv-${String(n).padStart(20, '0')}`);
      }
      if (o.journal) {
        journal.run(id, at, 'captured', 'badge America/Sao_Paulo');
        journal.run(id, at + 10, 'sending', null);
        journal.run(id, sentAt, 'sent', `srv-${n}`);
      }
      last = Math.max(last, at);
    }
  })();
  o.evidence?.settle();
  db.pragma(`cache_size = ${cache}`);
  return { punches: o.punches, journal: o.journal ? 3 * o.punches : 0, lastCapturedAt: last };
}
