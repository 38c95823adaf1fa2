import type { TimeReading } from '../../domain/time/anchored-time.js';
import type { Clock } from '../../domain/time/clock.js';
import { checkCode, type Credential } from '../../domain/people/credential.js';
import { resolveCredential, type IdentityRules, type InputKind } from '../../domain/people/identity.js';
import { chooseTimeZone, localDateTime, localMinuteMayRepeat } from '../../domain/time/local-time.js';
import type { ClockFlag, PunchNote, PunchResult } from '../../domain/punch/punch.js';
import type { Logger } from '../../log.js';
import { isDiskFull, type DurableDb } from '../../store/database.js';
import type { Identities } from '../../store/roster/identities.js';
import type { HeldReason, Outbox } from '../../store/punches/outbox.js';
import type { RosterEmployee } from '../../store/roster/roster.js';
import type { UnresolvedPunches } from '../../store/punches/unresolved.js';
import { checkPin, HOLD_UNVERIFIED, type PinChecker } from './capture-pin.js';
import { refusal } from './punch-refusal.js';
import { registered, repeatOf, type SealedPunch } from './punch-answers.js';
import { resolvePending } from './resolve-pending.js';

export type { PinChecker } from './capture-pin.js';
export type { SealedPunch } from './punch-answers.js';

export type CaptureOptions = {
  rules: IdentityRules;
  unknown: 'reject' | 'accept-and-resolve';
  repeatWindowMs: number;
  pinRequiredFor: readonly InputKind[];
  /** While an employee is locked out (or slowed down) after wrong PINs: hold their punches, or refuse them. */
  onLockout: 'hold' | 'refuse';
  fallbackTimeZone: string;
  clockSkewThresholdMs: number;
};

export type CaptureDeps = {
  /** The punch path: a resolved punch is committed on the durable connection. */
  db: DurableDb;
  outbox: Outbox;
  identities: Identities;
  unresolved: UnresolvedPunches;
  pins: PinChecker;
  clock: Clock;
  /** The service-anchored time (agent/time/time-source.ts): what a punch records. */
  time: { now(): TimeReading };
  log: Logger;
  /** The site's zone as last read by a roster sync (kept in memory: it is on every punch's path). */
  siteTimeZone: string | null;
  /** A punch was committed: wake the uploader. */
  committed: () => void;
  /**
   * False while the terminal has no complete employee list: an unknown code may then be somebody
   * the list would know, so the punch is kept to be matched, never refused.
   */
  rosterComplete: () => boolean;
  recordError: (message: string) => void;
  /**
   * The employer chain of a worker's marks from their payment source (agent/roster/employers.ts); absent: the
   * configured employer's.
   */
  employerChain?: (paymentSource: string | null) => string;
  /**
   * A punch was committed with the mark it sealed: its receipt is made from these values
   * (agent/receipts/fresh-marks.ts) rather than read back from the file it was just written to.
   */
  sealed?: (s: SealedPunch) => void;
};

/** How a punch of a known employee is committed (see Capture.commit). */
type CommitOptions = {
  /** The reading was kept with an unresolved capture: its clock flag is not this moment's. */
  capturedEarlier?: boolean;
  pinHold?: 'pin_unverified' | null;
  /** The unresolved capture's NSR: the punch takes it (its mark exists). */
  nsr?: number | null;
};

export function inputKindOf(kind: Credential['kind'] | string): InputKind {
  return kind === 'badge' ? 'badge' : 'id';
}

/**
 * A punch from credential to committed row: check the code, find the employee, the optional PIN,
 * the repeat rule, the local time, one durable INSERT. Answers only after the commit returned.
 */
export class Capture {
  private siteZone: string | null;
  private lastCaptureAt: number;
  /** The uploader is to be woken once the answer is out (`wakeSoon`). */
  private wakeAsked = false;

  constructor(
    private readonly d: CaptureDeps,
    private readonly o: CaptureOptions,
  ) {
    this.lastCaptureAt = d.outbox.latestCaptureAt() ?? 0;
    this.siteZone = d.siteTimeZone;
  }

  /** After a roster sync read the site. */
  setSiteTimeZone(zone: string | null): void {
    this.siteZone = zone;
  }

  /** The employee a code names, by the configured keys for its input kind. */
  identify(code: string, input: InputKind) {
    return resolveCredential(code, input, this.o.rules, this.d.identities.lookups);
  }

  /** Whether punches of this input kind ask for the employee's PIN. */
  needsPin(input: InputKind): boolean {
    return this.o.pinRequiredFor.includes(input);
  }

  /** Whether `pin` is the employee's PIN, not counted as an attempt (agent/capture/pin-prompt-line.ts). */
  isPinOf(employeeId: string, pin: string): Promise<boolean> {
    return this.d.pins.isPinOf(employeeId, pin);
  }

  /**
   * `pinForgotten`: the worker pressed "Esqueci meu PIN" (agent/capture/forgot-pin.ts): taken and held, never refused.
   */
  async punch(credential: Credential, opts: { pin?: string; pinForgotten?: boolean } = {}): Promise<PunchResult> {
    const check = checkCode(credential.value);
    if (!check.ok) return refusal('invalid_code', { detail: check.reason });
    const input = inputKindOf(credential.kind);
    const found = this.identify(check.code, input);
    const what = input === 'badge' ? 'badge' : 'id';
    switch (found.kind) {
      case 'invalid_cpf':
        return refusal('invalid_cpf');
      case 'ambiguous':
        this.d.log.warn('a credential matches several employees', { key: found.key, count: found.count });
        return refusal('ambiguous_credential', { what, n: String(found.count) });
      case 'unknown':
        if (!this.d.rosterComplete()) return this.keepUnresolved(check.code, credential.kind, 'awaiting_roster');
        return this.o.unknown === 'accept-and-resolve'
          ? this.keepUnresolved(check.code, credential.kind, 'unknown_code')
          : refusal('unknown_credential', { what });
      case 'found':
        break;
    }
    const employee = found.employee;
    if (this.o.pinRequiredFor.includes(input)) {
      if (opts.pinForgotten)
        return this.commit(employee, credential.kind, this.d.time.now(), { pinHold: 'pin_unverified' });
      const denied = await checkPin(this.d.pins, this.o.onLockout, employee, opts.pin, (e) => this.zoneFor(e));
      // Portaria 671: a punch is never refused; one whose PIN could not be checked waits for the manager.
      if (denied === HOLD_UNVERIFIED)
        return this.commit(employee, credential.kind, this.d.time.now(), { pinHold: 'pin_unverified' });
      if (denied) return denied;
    }
    return this.commit(employee, credential.kind, this.d.time.now());
  }

  private zoneFor(employee: Pick<RosterEmployee, 'timezone'>): string {
    return chooseTimeZone([employee.timezone, this.siteZone, this.o.fallbackTimeZone]);
  }

  /**
   * Commits the punch of a known employee read at `when` (now, or the reading kept with an
   * unresolved punch), with its mark in the evidence journal in the same transaction.
   */
  commit(employee: RosterEmployee, credentialKind: string, when: TimeReading, o: CommitOptions = {}): PunchResult {
    const { capturedEarlier = false, pinHold = null } = o;
    const at = when.at;
    const zone = this.zoneFor(employee);
    const local = localDateTime(at, zone);
    if (this.o.repeatWindowMs > 0) {
      const last = this.d.outbox.lastSince(employee.id, at - this.o.repeatWindowMs);
      if (last && at - last.captured_at >= 0 && at - last.captured_at < this.o.repeatWindowMs) return repeatOf(last);
    }
    // Portaria 671: a punch is never refused. One the service may not take, or whose PIN could not
    // be checked, is kept here, held.
    const held: HeldReason | null = pinHold ?? (employee.allow_api_record === 0 ? 'not_allowed' : null);
    const chain = this.d.employerChain?.(employee.payment_source) ?? '';
    let outcome;
    try {
      outcome = this.d.outbox.insert({
        capturedAt: at,
        localDate: local.date,
        localTime: local.time,
        timeZone: zone,
        employeeKey: employee.id,
        employeeExternalId: employee.external_id,
        employeeName: employee.full_name,
        credentialKind,
        clockFlag: capturedEarlier && when.anchored ? null : this.clockFlag(when),
        time: { wall: when.wall, mono: when.mono, bootId: when.bootId, anchored: when.anchored },
        heldReason: held,
        mayRepeatLocalMinute: localMinuteMayRepeat(at, zone, local),
        cpf: employee.cpf,
        nsr: o.nsr ?? null,
        chain,
      });
    } catch (e) {
      return this.storageFailed(e, employee.external_id ?? employee.id);
    }
    this.lastCaptureAt = Math.max(this.lastCaptureAt, at);
    if (!outcome.inserted) return repeatOf(outcome.existing);
    if (outcome.line !== null)
      this.d.sealed?.({
        nsr: outcome.nsr,
        line: outcome.line,
        chain,
        capturedAt: at,
        timeZone: zone,
        employeeName: employee.full_name,
        localDate: local.date,
        localTime: local.time,
        anchored: when.anchored,
        heldReason: held,
      });
    if (!held) this.wakeSoon();
    return registered(outcome, employee, local, held, when.anchored);
  }

  /**
   * The uploader is woken after the answer, not in it: woken at once it marks the punch 'sending' (an fsync) in the
   * microtasks the answer still waits behind.
   */
  private wakeSoon(): void {
    if (this.wakeAsked) return;
    this.wakeAsked = true;
    setImmediate(() => {
      this.wakeAsked = false;
      this.d.committed();
    });
  }

  private keepUnresolved(code: string, kind: string, note: PunchNote): PunchResult {
    const when = this.d.time.now();
    const now = when.at;
    const zone = chooseTimeZone([this.siteZone, this.o.fallbackTimeZone]);
    const local = localDateTime(now, zone);
    let kept;
    try {
      kept = this.d.unresolved.add(when, code, kind, { zone });
    } catch (e) {
      return this.storageFailed(e, null);
    }
    return {
      ok: true,
      punchId: null,
      nsr: kept.nsr,
      employeeName: null,
      employeeExternalId: null,
      localDate: local.date,
      localTime: local.time,
      repeat: false,
      note,
      ...(when.anchored ? {} : { timeToConfirm: true as const }),
    };
  }

  /**
   * After a roster sync: punches of codes the roster now knows join the outbox at the time they
   * were captured; the rest stay, listed in status. One transaction per punch (resolve-pending.ts).
   */
  resolvePending(): { resolved: number; remaining: number } {
    return resolvePending(
      this.d,
      (row) => this.identify(row.code, inputKindOf(row.credential_kind)),
      (employee, credentialKind, when, o) => this.commit(employee, credentialKind, when, o),
    );
  }

  private clockFlag(when: TimeReading): ClockFlag | null {
    // Before the first answer of its boot: the wall clock, recomputed before sending if it can be.
    if (!when.anchored) return 'unanchored';
    // This machine's synchronised clock was kept against the service's: payroll should know.
    if (when.serviceClockOff) return 'service_clock_off';
    const at = when.at;
    if (Math.abs(at - when.wall) > this.o.clockSkewThresholdMs) return 'skewed';
    if (at < this.lastCaptureAt - 60_000) return 'jumped_back';
    return null;
  }

  private storageFailed(e: unknown, who: string | null): PunchResult {
    const why = isDiskFull(e) ? 'the disk is full' : (e as Error).message;
    this.d.log.error('punch could not be saved', { error: (e as Error).message, employee: who });
    this.d.recordError(`punch could not be saved: ${why}`);
    return refusal('storage_failed', { why }, who);
  }
}
