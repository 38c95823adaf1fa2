import type { FactEvent } from '../domain/journal-fact.js';
import type { PunchState, ClockFlag } from '../domain/punch.js';
import type { Db } from './database.js';
import { EvidenceJournal } from './evidence-journal.js';
import { JournalFacts } from './journal-facts.js';

/** A punch row as the uploader and the status screens need it. */
export type PunchRow = {
  id: number;
  captured_at: number;
  local_date: string;
  local_time: string;
  time_zone: string;
  employee_key: string;
  employee_external_id: string | null;
  employee_name: string;
  credential_kind: string;
  state: PunchState;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  reject_reason: string | null;
  remote_id: string | null;
  sent_at: number | null;
  clock_flag: ClockFlag | null;
  updated_at: number;
  /** Why a held punch waits (see HeldReason); null when it is not held. */
  held_reason: HeldReason | null;
  /** Reconciliation checks answered without proof either way (refused, unreadable). */
  checks: number;
  /** What capture read: the wall clock, the monotonic clock (ms since boot) and the boot. */
  wall_at: number | null;
  mono_at: number | null;
  boot_id: string | null;
  /** 0: captured before any answer of the service in its boot (wall clock), recomputed at the first. */
  anchored: number;
  /** Its mark in the evidence journal (null: taken before the journal, until the agent's next open journals it). */
  nsr: number | null;
};

export type NewPunch = {
  capturedAt: number;
  localDate: string;
  localTime: string;
  timeZone: string;
  employeeKey: string;
  employeeExternalId: string | null;
  employeeName: string;
  credentialKind: string;
  clockFlag: ClockFlag | null;
  /** Set: kept but not sent (the employee's contract forbids API records). */
  heldReason?: HeldReason | null;
  /** The local minute may have come before (the zone's clock went back within the hour): look for a collision. */
  mayRepeatLocalMinute?: boolean;
  /** The clock readings behind `capturedAt` (absent: anchored, nothing to recompute). */
  time?: { wall: number; mono: number; bootId: string; anchored: boolean };
  /** The worker's CPF for the mark (absent or null: not known, twelve zeros). */
  cpf?: string | null;
  /** Whether the service was reachable at capture (the mark's on-line flag; absent: off-line). */
  online?: boolean;
  /** The NSR of the unresolved capture this punch is (its mark exists already): no new mark. */
  nsr?: number | null;
};

/**
 * Why a punch is held:
 * - not_allowed: the employee's `allow_external_api_record` is false (released by a roster sync);
 * - forbidden: the service answered 403 for this employee while the token is fine (retried on a
 *   slow schedule and after each roster sync);
 * - unverified: in doubt, and the service would not say whether it has it: a person decides
 *   (send again, or mark as delivered);
 * - pin_unverified: taken while its employee was locked out after wrong PINs: the manager confirms
 *   (sent) or disputes it;
 * - disputed: a manager disputed it: kept here, never sent, with the reason.
 */
export type HeldReason = 'not_allowed' | 'forbidden' | 'unverified' | 'pin_unverified' | 'disputed';

type Writer = ReturnType<typeof writer>;

function writer(db: Db) {
  return {
    db,
    journal: db.prepare('INSERT INTO punch_journal (punch_id, at, event, detail) VALUES (?, ?, ?, ?)'),
    /** The evidence journal's facts: appended with the state change they record (not retries: sending, pending, in doubt). */
    facts: new JournalFacts(db),
    setState: db.prepare(
      `UPDATE punches SET state = @state, attempts = attempts + @attempt, next_attempt_at = @nextAt,
         last_error = @error, updated_at = @now WHERE id = @id`,
    ),
    setSent: db.prepare(
      `UPDATE punches SET state = 'sent', remote_id = @remoteId, sent_at = @now, last_error = NULL, updated_at = @now
       WHERE id = @id`,
    ),
    setHeld: db.prepare(
      `UPDATE punches SET state = 'held', held_reason = @reason, next_attempt_at = @nextAt, last_error = @error,
         checks = checks + @check, updated_at = @now WHERE id = @id`,
    ),
    countCheck: db.prepare(`UPDATE punches SET checks = checks + 1 WHERE id = ?`),
    setRejected: db.prepare(
      `UPDATE punches SET state = 'rejected', attempts = attempts + 1, reject_reason = @reason, last_error = @reason,
         updated_at = @now WHERE id = @id`,
    ),
  };
}

export type InsertOutcome = { inserted: true; id: number; nsr: number } | { inserted: false; existing: PunchRow };

/**
 * The outbox: the only code that writes punch rows. Every state change is journalled in the same
 * transaction, so "what happened to this punch" can always be answered for payroll.
 */
export class Outbox {
  private readonly stmts;
  private readonly durable: Writer;
  /** Writes whose loss in a power cut is repaired by reconciliation (see constructor). */
  private readonly lazy: Writer;

  /**
   * `db` is the durable (synchronous=FULL) connection: captures and 'sending' go through it, so
   * a punch is on disk before it is acknowledged and before its request leaves. `lazyDb` (by
   * default the same) takes the transitions after an answer: if a power cut undoes one, the row
   * is found in 'sending', becomes in_doubt and is reconciled, so nothing is lost or doubled;
   * sparing their fsync halves the disk syncs per delivered punch.
   */
  constructor(
    private readonly db: Db,
    lazyDb: Db = db,
    /** Its mark per punch, in the insert's transaction (store/evidence-journal.ts); on `db`. */
    private readonly journal: EvidenceJournal = new EvidenceJournal(db),
  ) {
    if (journal.db !== db) throw new Error('the outbox and its evidence journal must share the durable connection');
    this.durable = writer(db);
    this.lazy = lazyDb === db ? this.durable : writer(lazyDb);
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO punches (captured_at, local_date, local_time, time_zone, employee_key, employee_external_id,
           employee_name, credential_kind, state, next_attempt_at, clock_flag, updated_at, held_reason, utc_minute, collides,
           wall_at, mono_at, boot_id, anchored, nsr)
         VALUES (@capturedAt, @localDate, @localTime, @timeZone, @employeeKey, @employeeExternalId,
           @employeeName, @credentialKind, CASE WHEN @heldReason IS NULL THEN 'pending' ELSE 'held' END, @deadlineNow,
           @clockFlag, @deadlineNow, @heldReason, @utcMinute, @collides,
           @wallAt, @monoAt, @bootId, @anchored, @nsr)
         ON CONFLICT (employee_key, utc_minute, local_time) DO NOTHING
         RETURNING id, collides`,
      ),
      byMinute: db.prepare('SELECT * FROM punches WHERE employee_key = ? AND utc_minute = ? AND local_time = ?'),
      // Only asked when the zone's clock went back (a DST fall-back): the employee's own rows, by the unique index's prefix.
      sameLocalMinute: db.prepare('SELECT 1 FROM punches WHERE employee_key = ? AND local_date = ? AND local_time = ? LIMIT 1'),
      colliding: db.prepare('SELECT * FROM punches INDEXED BY punches_colliding WHERE collides = 1 ORDER BY id DESC LIMIT ?'),
      collidingCount: db.prepare('SELECT COUNT(*) AS n FROM punches INDEXED BY punches_colliding WHERE collides = 1'),
      byId: db.prepare('SELECT * FROM punches WHERE id = ?'),
      dueBatch: db.prepare(
        // INDEXED BY: without statistics the planner takes punches_state and sorts the whole
        // backlog on every pick; this index hands them over in capture order.
        `SELECT * FROM punches INDEXED BY punches_unsent_by_id
         WHERE state IN ('pending','in_doubt') AND next_attempt_at <= ? ORDER BY id LIMIT ?`,
      ),
      earliestDue: db.prepare(`SELECT MIN(next_attempt_at) AS t FROM punches INDEXED BY punches_due WHERE state IN ('pending','in_doubt')`),
      hasDue: db.prepare(
        `SELECT 1 FROM punches INDEXED BY punches_due WHERE state IN ('pending','in_doubt') AND next_attempt_at <= ? LIMIT 1`,
      ),
      retryRejected: db.prepare(
        `UPDATE punches SET state = 'pending', next_attempt_at = @now, reject_reason = NULL, updated_at = @now
         WHERE id = @id AND state = 'rejected'`,
      ),
      interrupted: db.prepare(`SELECT id FROM punches WHERE state = 'sending'`),
      // Status and start cost the same after years of punches: counters kept by triggers and
      // indexes (migration 8), never a pass over the history.
      counts: db.prepare('SELECT state, n FROM punch_counts'),
      oldestUnsent: db.prepare(
        `SELECT MIN(captured_at) AS t FROM punches INDEXED BY punches_unsent_at WHERE state IN ('pending','sending','in_doubt')`,
      ),
      rejected: db.prepare(`SELECT * FROM punches WHERE state = 'rejected' ORDER BY id LIMIT ?`),
      latestCapture: db.prepare('SELECT MAX(captured_at) AS t FROM punches INDEXED BY punches_captured_at'),
      // The roster's allow_external_api_record: pending punches of those it forbids are held; held
      // ones of everyone else (true, not defined, or gone from the roster) go back to the queue.
      toHold: db.prepare(
        `SELECT p.id FROM roster_employees r JOIN punches p ON p.employee_key = r.id
         WHERE r.allow_api_record = 0 AND p.state = 'pending'`,
      ),
      toRelease: db.prepare(
        `SELECT p.id FROM punches p INDEXED BY punches_held WHERE p.state = 'held' AND p.held_reason = 'not_allowed'
           AND NOT EXISTS (SELECT 1 FROM roster_employees r WHERE r.id = p.employee_key AND r.allow_api_record = 0)`,
      ),
      hold: db.prepare(`UPDATE punches SET state = 'held', held_reason = @reason, updated_at = @now WHERE id = @id AND state = 'pending'`),
      release: db.prepare(
        `UPDATE punches SET state = 'pending', held_reason = NULL, next_attempt_at = @now, checks = 0, updated_at = @now WHERE id = @id AND state = 'held'`,
      ),
      forbiddenHeld: db.prepare(`SELECT id FROM punches INDEXED BY punches_held WHERE state = 'held' AND held_reason = 'forbidden'`),
      forbiddenDue: db.prepare(
        `SELECT id FROM punches INDEXED BY punches_held WHERE state = 'held' AND held_reason = 'forbidden' AND next_attempt_at <= ?`,
      ),
      unanchored: db.prepare(
        `SELECT * FROM punches INDEXED BY punches_unanchored WHERE anchored = 0 AND boot_id = ? AND state IN ('pending','held')`,
      ),
      reanchor: db.prepare(
        `UPDATE OR IGNORE punches SET captured_at = @at, local_date = @date, local_time = @time, utc_minute = @utcMinute,
           anchored = 1, clock_flag = NULL, updated_at = @now WHERE id = @id AND anchored = 0`,
      ),
      markAnchored: db.prepare(`UPDATE punches SET anchored = 1, updated_at = @now WHERE id = @id`),
      shiftDeadlines: db.prepare(
        `UPDATE punches SET next_attempt_at = next_attempt_at + @ms WHERE state IN ('pending','in_doubt','held')`,
      ),
      clampDeadlines: db.prepare(
        `UPDATE punches SET next_attempt_at = @now WHERE state IN ('pending','in_doubt') AND next_attempt_at > @latest`,
      ),
      heldList: db.prepare(`SELECT * FROM punches INDEXED BY punches_held WHERE state = 'held' ORDER BY id LIMIT ?`),
      rejectedIds: db.prepare(`SELECT id FROM punches INDEXED BY punches_state WHERE state = 'rejected'`),
      delivered: db.prepare(
        `UPDATE punches SET state = 'sent', held_reason = NULL, sent_at = @now, updated_at = @now WHERE id = @id AND state = 'held'`,
      ),
      dispute: db.prepare(
        `UPDATE punches SET held_reason = 'disputed', last_error = @reason, updated_at = @now WHERE id = @id AND state = 'held'`,
      ),
      lastOf: db.prepare('SELECT * FROM punches WHERE employee_key = ? ORDER BY captured_at DESC LIMIT 1'),
      heldReasonOf: db.prepare(`SELECT held_reason FROM punches WHERE id = ? AND state = 'held'`),
    };
  }

  /**
   * Inserts a punch, or returns the one the same employee already has in the same minute (the UTC
   * minute: a DST fall-back shows one local minute twice, an hour apart, and those are two punches;
   * the second is kept, sent and flagged as colliding for status).
   */
  insert(p: NewPunch): InsertOutcome {
    const utcMinute = Math.floor(p.capturedAt / 60_000);
    // IMMEDIATE: the journal's next NSR and previous hash are read here, before the writes.
    const tx = this.db.transaction((): InsertOutcome => {
      const t = p.time;
      const collides = p.mayRepeatLocalMinute === true && this.stmts.sameLocalMinute.get(p.employeeKey, p.localDate, p.localTime) !== undefined;
      const nsr = p.nsr ?? this.journal.reserveNsr();
      const row = this.stmts.insert.get({
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
        if (p.nsr == null) {
          this.journal.appendMark({
            nsr, at: p.capturedAt, localDate: p.localDate, localTime: p.localTime, zone: p.timeZone,
            recordedAt: p.capturedAt, cpf: p.cpf ?? null, online: p.online ?? false, punchId: row.id,
          });
        }
        this.durable.journal.run(row.id, p.capturedAt, 'captured', `${p.credentialKind} ${p.timeZone}${p.clockFlag ? ` clock:${p.clockFlag}` : ''}`);
        if (p.heldReason) {
          this.durable.journal.run(row.id, p.capturedAt, 'held', p.heldReason);
          this.durable.facts.append(nsr, p.capturedAt, 'held', p.heldReason);
        }
        if (row.collides) this.durable.journal.run(row.id, p.capturedAt, 'local_minute_collision', `${p.localDate} ${p.localTime}`);
        return { inserted: true, id: row.id, nsr };
      }
      return { inserted: false, existing: this.stmts.byMinute.get(p.employeeKey, utcMinute, p.localTime) as PunchRow };
    });
    try {
      return tx.immediate();
    } finally {
      this.journal.settle();
    }
  }

  /**
   * The evidence journal's fact for a state change, in its transaction. A punch held again for the
   * reason its last fact already gives (a 403 retried on the slow schedule) adds nothing.
   */
  private fact(w: Writer, id: number, now: number, event: FactEvent, detail: string | null): void {
    if (event === 'held' && w.facts.lastOfPunch(id)?.startsWith(`held ${(detail ?? '').split(':')[0]}`)) return;
    w.facts.forPunch(id, now, event, detail);
  }

  /** Punches sent with a local minute another punch of the same employee also has (DST fall-back), newest first. */
  collisions(limit = 20): { count: number; punches: PunchRow[] } {
    return { count: (this.stmts.collidingCount.get() as { n: number }).n, punches: this.stmts.colliding.all(limit) as PunchRow[] };
  }

  get(id: number): PunchRow | null {
    return (this.stmts.byId.get(id) as PunchRow | undefined) ?? null;
  }

  /** The oldest `limit` punches due at `now` (pending, or in doubt and due for a check). */
  dueBatch(now: number, limit: number): PunchRow[] {
    return this.stmts.dueBatch.all(now, limit) as PunchRow[];
  }

  /** When the next pending or in-doubt punch becomes due, or null when there is none. */
  earliestDueAt(): number | null {
    return (this.stmts.earliestDue.get() as { t: number | null }).t;
  }

  hasDue(now: number): boolean {
    return this.stmts.hasDue.get(now) !== undefined;
  }

  private transition(w: Writer, id: number, now: number, state: PunchState, nextAt: number, error: string | null, countAttempt: boolean, event: string): void {
    w.db.transaction(() => {
      w.setState.run({ id, state, nextAt, error, now, attempt: countAttempt ? 1 : 0 });
      w.journal.run(id, now, event, error);
    })();
  }

  /** Durable before the request leaves: a crash from here on is found as 'sending' and reconciled. */
  markSending(id: number, now: number): void {
    this.transition(this.durable, id, now, 'sending', now, null, true, 'sending');
  }

  markPending(id: number, now: number, nextAt: number, error: string | null, countAttempt = false): void {
    this.transition(this.lazy, id, now, 'pending', nextAt, error, countAttempt, 'retry_scheduled');
  }

  markInDoubt(id: number, now: number, checkAt: number, error: string): void {
    this.transition(this.lazy, id, now, 'in_doubt', checkAt, error, false, 'in_doubt');
  }

  /** A reconciliation check the service answered without proof either way (a refusal, an unreadable list). */
  markCheckFailed(id: number, now: number, checkAt: number, error: string): void {
    const w = this.lazy;
    w.db.transaction(() => {
      w.countCheck.run(id);
      w.setState.run({ id, state: 'in_doubt', nextAt: checkAt, error, now, attempt: 0 });
      w.journal.run(id, now, 'check_failed', error);
    })();
  }

  /** Kept, not sent, until `nextAt` (forbidden) or a roster sync or a person releases it. */
  markHeld(id: number, now: number, reason: HeldReason, error: string, nextAt: number): void {
    const w = this.lazy;
    w.db.transaction(() => {
      w.setHeld.run({ id, now, reason, error, nextAt, check: 0 });
      w.journal.run(id, now, 'held', `${reason}: ${error}`);
      this.fact(w, id, now, 'held', `${reason}: ${error}`);
    }).immediate();
  }

  markSent(id: number, now: number, remoteId: string | null, how: 'created' | 'reconciled'): void {
    const w = this.lazy;
    w.db.transaction(() => {
      w.setSent.run({ id, now, remoteId });
      w.journal.run(id, now, how === 'created' ? 'sent' : 'found_on_server', remoteId);
      this.fact(w, id, now, 'delivered', `${remoteId ?? '(no _id)'}${how === 'reconciled' ? ' (found on the service)' : ''}`);
    }).immediate();
  }

  markRejected(id: number, now: number, reason: string): void {
    const w = this.lazy;
    w.db.transaction(() => {
      w.setRejected.run({ id, now, reason });
      w.journal.run(id, now, 'rejected', reason);
      this.fact(w, id, now, 'rejected', reason);
    }).immediate();
  }

  /** Puts a rejected punch back in the queue (after the roster or config was fixed). */
  retryRejected(id: number, now: number): boolean {
    return this.db.transaction(() => {
      const changed = this.stmts.retryRejected.run({ id, now }).changes > 0;
      if (changed) {
        this.durable.journal.run(id, now, 'retry_requested', null);
        this.fact(this.durable, id, now, 'released', 'a rejected punch queued again by a person');
      }
      return changed;
    }).immediate();
  }

  /**
   * After a crash or kill, a punch left in 'sending' may or may not have reached the server:
   * it becomes in_doubt, so the reconciler looks before anything is sent again.
   */
  recoverInterrupted(now: number): number {
    return this.db.transaction(() => {
      const ids = (this.stmts.interrupted.all() as { id: number }[]).map((r) => r.id);
      for (const id of ids) {
        this.durable.setState.run({ id, state: 'in_doubt', nextAt: now, error: 'interrupted while sending', now, attempt: 0 });
        this.durable.journal.run(id, now, 'in_doubt', 'interrupted while sending (restart)');
      }
      return ids.length;
    })();
  }

  /**
   * After a roster sync: holds the pending punches of employees whose contract forbids API records
   * and releases, with their original times, the held punches of everyone else. Journalled.
   */
  applyApiPermissions(now: number): { held: number; released: number } {
    return this.db.transaction(() => {
      let held = 0;
      let released = 0;
      for (const { id } of this.stmts.toHold.all() as { id: number }[]) {
        held += this.stmts.hold.run({ id, now, reason: 'not_allowed' }).changes;
        this.durable.journal.run(id, now, 'held', 'not_allowed');
        this.fact(this.durable, id, now, 'held', 'not_allowed: allow_external_api_record is false');
      }
      for (const { id } of this.stmts.toRelease.all() as { id: number }[]) {
        released += this.stmts.release.run({ id, now }).changes;
        this.durable.journal.run(id, now, 'released', 'allow_external_api_record no longer false');
        this.fact(this.durable, id, now, 'released', 'allow_external_api_record no longer false');
      }
      return { held, released };
    }).immediate();
  }

  /**
   * The first anchor of boot `bootId` arrived: punches captured before it, on the wall clock, get
   * the service's time (the anchor's plus the monotonic time between them), in their own zone,
   * before they are sent. One in doubt may already be on the service with its old time: it stays.
   */
  reanchor(bootId: string, timeOf: (monoAt: number, wallAt: number) => number, localOf: (at: number, zone: string) => { date: string; time: string }, now: number): number {
    return this.db.transaction(() => {
      let n = 0;
      for (const row of this.stmts.unanchored.all(bootId) as PunchRow[]) {
        if (row.mono_at === null) continue;
        const at = timeOf(row.mono_at, row.wall_at ?? row.captured_at);
        const local = localOf(at, row.time_zone);
        const changed = this.stmts.reanchor.run({ id: row.id, at, date: local.date, time: local.time, utcMinute: Math.floor(at / 60_000), now }).changes;
        // Its corrected minute is one the employee already has: it keeps the wall time, and says so.
        if (!changed) this.stmts.markAnchored.run({ id: row.id, now });
        this.durable.journal.run(row.id, now, 'reanchored', changed ? `${row.local_date} ${row.local_time} -> ${local.date} ${local.time}` : 'kept: the corrected minute is taken');
        // The mark keeps the time read at capture; the time sent is this one.
        if (changed) this.fact(this.durable, row.id, now, 'reanchored', `${row.local_date} ${row.local_time} -> ${local.date} ${local.time} (the service's clock)`);
        n += changed;
      }
      return n;
    }).immediate();
  }

  /** The wall clock stepped by `ms`: every retry time moves with it (a step back must not hold them for hours). */
  shiftDeadlines(ms: number): void {
    this.lazy.db.transaction(() => this.stmts.shiftDeadlines.run({ ms }))();
  }

  /** At start: a retry scheduled further ahead than `maxAheadMs` (the clock was stepped back meanwhile) is due now. */
  clampDeadlines(now: number, maxAheadMs: number): number {
    return this.stmts.clampDeadlines.run({ now, latest: now + maxAheadMs }).changes;
  }

  /** Punches held for a 403 whose slow retry is due go back to the queue. */
  releaseDueForbidden(now: number): number {
    const ids = this.stmts.forbiddenDue.all(now) as { id: number }[];
    if (ids.length === 0) return 0;
    return this.releaseAll(ids, now, 'retry after 403');
  }

  /** After a roster sync: punches held for a 403 are tried again (the employee may have changed). */
  releaseForbidden(now: number): number {
    return this.releaseAll(this.stmts.forbiddenHeld.all() as { id: number }[], now, 'roster sync: retry after 403');
  }

  private releaseAll(ids: { id: number }[], now: number, why: string): number {
    return this.db.transaction(() => {
      let n = 0;
      for (const { id } of ids) {
        n += this.stmts.release.run({ id, now }).changes;
        this.durable.journal.run(id, now, 'released', why);
      }
      return n;
    })();
  }

  /** A person's decision on a held punch: send it again (it may then exist twice) or take it as delivered. */
  decideHeld(id: number, now: number, decision: 'resend' | 'delivered' | 'dispute', reason = ''): boolean {
    return this.db.transaction(() => {
      const was = (this.stmts.heldReasonOf.get(id) as { held_reason: HeldReason | null } | undefined)?.held_reason ?? null;
      const changed =
        (decision === 'dispute' ? this.stmts.dispute.run({ id, now, reason }) : (decision === 'resend' ? this.stmts.release : this.stmts.delivered).run({ id, now }))
          .changes > 0;
      const event = { resend: 'resend_requested', delivered: 'marked_delivered', dispute: 'disputed' }[decision];
      if (changed) {
        this.durable.journal.run(id, now, event, decision === 'dispute' ? `by a person: ${reason}` : 'by a person');
        // Sending a punch whose PIN was not verified is the manager confirming it.
        if (decision === 'dispute') this.fact(this.durable, id, now, 'disputed', reason);
        else if (decision === 'delivered') this.fact(this.durable, id, now, 'delivered', 'taken as delivered by a person');
        else if (was === 'pin_unverified') this.fact(this.durable, id, now, 'confirmed', 'by a person');
        else this.fact(this.durable, id, now, 'released', `held (${was ?? '?'}): sent again by a person`);
      }
      return changed;
    }).immediate();
  }

  listHeld(limit = 100): PunchRow[] {
    return this.stmts.heldList.all(limit) as PunchRow[];
  }

  /** Every rejected punch back in the queue (after the roster or the configuration was fixed). */
  retryAllRejected(now: number): number {
    const ids = this.stmts.rejectedIds.all() as { id: number }[];
    return this.db.transaction(() => ids.reduce((n, { id }) => n + (this.retryRejected(id, now) ? 1 : 0), 0))();
  }

  counts(): Record<PunchState, number> {
    const out: Record<PunchState, number> = { pending: 0, sending: 0, in_doubt: 0, sent: 0, rejected: 0, held: 0 };
    for (const r of this.stmts.counts.all() as { state: PunchState; n: number }[]) out[r.state] = r.n;
    return out;
  }

  oldestUnsentAt(): number | null {
    return (this.stmts.oldestUnsent.get() as { t: number | null }).t;
  }

  latestCaptureAt(): number | null {
    return (this.stmts.latestCapture.get() as { t: number | null }).t;
  }

  /** The latest punch of an employee (for a repeat window longer than a minute). */
  lastOf(employeeKey: string): PunchRow | null {
    return (this.stmts.lastOf.get(employeeKey) as PunchRow | undefined) ?? null;
  }

  listRejected(limit = 100): PunchRow[] {
    return this.stmts.rejected.all(limit) as PunchRow[];
  }
}
