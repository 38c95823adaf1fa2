/**
 * Punch times after the clock moved: the first anchor of a boot re-times punches captured before
 * it on the wall clock, and a step of the wall clock moves the retry deadlines with it.
 */
import type { WritableDb } from '../database.js';
import type { EvidenceJournal } from '../journal/evidence-journal.js';
import type { PunchRow } from './punch-row.js';
import { punchFact, type PunchWriter } from './punch-writer.js';

export class PunchTimes {
  private readonly stmts;

  /** `durable`: captures' rows and their journal; `lazy`: the connection deadline moves are committed on. */
  constructor(
    private readonly durable: PunchWriter,
    private readonly lazy: PunchWriter,
    /** Where the clock adjustment (AFD type 4) is recorded when sealed marks were timed wrong. */
    private readonly evidence: EvidenceJournal | null = null,
  ) {
    const db: WritableDb = durable.db;
    this.stmts = {
      unanchored: db.prepare(
        `SELECT * FROM punches INDEXED BY punches_unanchored WHERE anchored = 0 AND boot_id = ? AND state IN ('pending','held')`,
      ),
      reanchor: db.prepare(
        `UPDATE OR IGNORE punches SET captured_at = @at, local_date = @date, local_time = @time, utc_minute = @utcMinute,
           anchored = 1, clock_flag = NULL, updated_at = @now WHERE id = @id AND anchored = 0`,
      ),
      markAnchored: db.prepare(`UPDATE punches SET anchored = 1, updated_at = @now WHERE id = @id`),
      // Only deadlines written before the step (by the clock the step moved): one written since, with
      // the new clock, is right already; moving it again would hold its punch for the step's length.
      shiftDeadlines: db.prepare(
        `UPDATE punches SET next_attempt_at = next_attempt_at + @ms WHERE state IN ('pending','in_doubt','held') AND updated_at <= @before`,
      ),
      // Re-timed by its boot's first anchor: a punch held because its wall-clock time could not be true goes.
      releaseClockHeld: db.prepare(
        `UPDATE punches SET state = 'pending', held_reason = NULL, next_attempt_at = @now, updated_at = @now
         WHERE id = @id AND state = 'held' AND held_reason = 'clock_unverified'`,
      ),
      // Back from the punch by rowid (capture order): the first anchored row ends the walk.
      newestAnchored: db.prepare(
        'SELECT captured_at AS t FROM punches WHERE id < ? AND anchored = 1 ORDER BY id DESC LIMIT 1',
      ),
      clampDeadlines: db.prepare(
        `UPDATE punches SET next_attempt_at = @now WHERE state IN ('pending','in_doubt') AND next_attempt_at > @latest`,
      ),
    };
  }

  /**
   * The first anchor of boot `bootId` arrived: punches captured before it, on the wall clock, get
   * the service's time (the anchor's plus the monotonic time between them), in their own zone,
   * before they are sent. One in doubt may already be on the service with its old time: it stays.
   */
  reanchor(
    bootId: string,
    timeOf: (monoAt: number, wallAt: number) => number,
    localOf: (at: number, zone: string) => { date: string; time: string },
    now: number,
    clock?: { before: number; after: number },
  ): number {
    try {
      return this.durable.db
        .transaction(() => {
          const rows = (this.stmts.unanchored.all(bootId) as PunchRow[]).filter((r) => r.mono_at !== null);
          const moves = rows.map((row) => {
            const at = timeOf(row.mono_at as number, row.wall_at ?? row.captured_at);
            const local = localOf(at, row.time_zone);
            return { row, at, local, moved: local.date !== row.local_date || local.time !== row.local_time };
          });
          // Sealed marks whose minute was wrong: the AFD says so in a type 4 record after them
          // (docs/evidence-journal.md).
          const wrong = moves.filter((m) => m.moved && m.row.nsr !== null);
          const first = wrong[0];
          const adjustment =
            clock && first && this.evidence
              ? this.evidence.appendClockAdjustment({
                  before: clock.before,
                  after: clock.after,
                  zone: first.row.time_zone,
                  at: now,
                  corrects: wrong.map((m) => m.row.nsr as number),
                })
              : null;
          const where = adjustment === null ? '' : `; clock adjustment NSR ${adjustment}`;
          let n = 0;
          for (const { row, at, local } of moves) {
            const changed = this.stmts.reanchor.run({
              id: row.id,
              at,
              date: local.date,
              time: local.time,
              utcMinute: Math.floor(at / 60_000),
              now,
            }).changes;
            // Its corrected minute is one the employee already has: it keeps the wall time, and says so.
            if (!changed) this.stmts.markAnchored.run({ id: row.id, now });
            this.durable.journal.run(
              row.id,
              now,
              'reanchored',
              changed
                ? `${row.local_date} ${row.local_time} -> ${local.date} ${local.time}`
                : 'kept: the corrected minute is taken',
            );
            // The mark keeps the time read at capture; the time sent is this one, and the receipt shows both.
            if (changed)
              punchFact(
                this.durable,
                row.id,
                now,
                'reanchored',
                `${row.local_date} ${row.local_time} -> ${local.date} ${local.time} (the service's clock${where})`,
              );
            if (this.stmts.releaseClockHeld.run({ id: row.id, now }).changes > 0) {
              this.durable.journal.run(row.id, now, 'released', "its time is now the service's");
              punchFact(
                this.durable,
                row.id,
                now,
                'released',
                "held for its unconfirmed time: re-timed on the service's clock",
              );
            }
            n += changed;
          }
          return n;
        })
        .immediate();
    } finally {
      this.evidence?.settle();
    }
  }

  /**
   * The wall clock stepped by `ms`: retry times move with it (a step back must not hold them for
   * hours), those written up to `before` (the old clock's latest reading; default: all) only.
   */
  shiftDeadlines(ms: number, before = Number.MAX_SAFE_INTEGER): void {
    this.lazy.db.transaction(() => this.stmts.shiftDeadlines.run({ ms, before }))();
  }

  /** The time of the last punch taken on the service's clock (anchored) before punch `id`, or null. */
  newestAnchoredBefore(id: number): number | null {
    return (this.stmts.newestAnchored.get(id) as { t: number } | undefined)?.t ?? null;
  }

  /** At start: a retry scheduled further ahead than `maxAheadMs` (the clock was stepped back meanwhile) is due now. */
  clampDeadlines(now: number, maxAheadMs: number): number {
    return this.stmts.clampDeadlines.run({ now, latest: now + maxAheadMs }).changes;
  }
}
