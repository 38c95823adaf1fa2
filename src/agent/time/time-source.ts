import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import {
  anchorOf,
  ANCHOR_TOLERANCE_MS,
  readTime,
  type Anchor,
  type TimeReading,
} from '../../domain/time/anchored-time.js';
import type { Clock, Monotonic } from '../../domain/time/clock.js';
import {
  AGREEMENT_MS,
  anchorAfter,
  anchorWhenLocalWins,
  judgeServerDate,
  type DateCandidate,
  type NtpSync,
  type ServiceClockState,
} from '../../domain/time/date-plausibility.js';
import type { WritableDb } from '../../store/database.js';
import { settingKeys, type ServiceClockRecord } from '../../store/settings/setting-keys.js';
import { readSetting, writeSetting } from '../../store/settings/settings.js';

/** The kernel's id of this boot (Linux); elsewhere one per process, so anchors never cross a restart wrongly. */
export function currentBootId(): string {
  try {
    const id = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    if (/^[0-9a-f-]{36}$/.test(id)) return id;
  } catch {
    /* not Linux */
  }
  return `process-${randomUUID()}`;
}

/** Monotonic ms since boot (libuv's CLOCK_MONOTONIC): the same origin in every process of a boot. */
export const bootMonotonic: Monotonic = () => Number(process.hrtime.bigint() / 1_000_000n);

/** Answers in a row without a usable `Date` before the terminal says so and sends at its own clock. */
export const MISSING_DATE_LIMIT = 3;

export type TimeSourceParts = {
  db: WritableDb;
  clock: Clock;
  mono: Monotonic;
  bootId: string;
  /** This machine's NTP state, cached (agent/host/ntp-sync.ts): read on every answer. */
  ntp: () => NtpSync;
  /** `clock.serviceSkewBoundMs`: how far the service's `Date` may be from the time in force. */
  boundMs: number;
  /** This boot's first anchor: punches taken before it are recomputed then, before they are sent. */
  onFirstAnchor?: (a: Anchor) => void;
  /** The skew (anchored minus wall) changed by more than a `Date` can tell, or became known: report it. */
  onSkew?: (skewMs: number | null) => void;
  /** What the terminal makes of the service's clock changed (state, offset, NTP state): report it. */
  onServiceClock?: (now: ServiceClockRecord, before: ServiceClockRecord | null) => void;
};

/**
 * The terminal's time: the service's clock carried forward by the monotonic one, when the
 * service's `Date` is plausible (domain/time/date-plausibility.ts). Kept in the database so a restart
 * within the same boot is anchored at once. It also tells, on change only, how far the wall clock
 * is from the time in force (the skew) and what it makes of the service's clock.
 */
export class TimeSource {
  private anchor: Anchor | null;
  /** A far `Date` waiting for a second answer to agree. */
  private pending: DateCandidate | null = null;
  private missingInARow = 0;
  private service: ServiceClockRecord | null;
  /** The skew last reported (undefined: none yet in this process). */
  private reportedSkew: number | null | undefined = undefined;
  readonly bootId: string;

  constructor(private readonly p: TimeSourceParts) {
    this.bootId = p.bootId;
    const stored = readSetting(p.db, settingKeys.timeAnchor);
    this.anchor = stored && stored.bootId === p.bootId ? stored : null;
    this.service = readSetting(p.db, settingKeys.serviceClock);
  }

  now(): TimeReading {
    const r = readTime(this.anchor, this.bootId, this.p.clock.now(), this.p.mono());
    return this.service?.state === 'off' && r.anchored ? { ...r, serviceClockOff: true } : r;
  }

  /** The monotonic reading, for timing a request around it. */
  monoNow(): number {
    return this.p.mono();
  }

  get current(): Anchor | null {
    return this.anchor;
  }

  /** What the terminal last made of the service's clock (null: nothing yet). */
  get serviceClock(): ServiceClockRecord | null {
    return this.service;
  }

  /** Answers without a usable `Date` came MISSING_DATE_LIMIT times in a row: punches go at this terminal's clock. */
  get dateMissing(): boolean {
    return this.service?.state === 'no_date';
  }

  /** How far the wall clock is from the service's (anchored minus wall), or null before any anchor. */
  skewMs(): number | null {
    const r = this.now();
    return r.anchored ? r.at - r.wall : null;
  }

  /** An answer with a `Date` header arrived; `sentMono`/`receivedMono` bracket the exchange. */
  noteServerDate(serverDate: number, sentMono: number, receivedMono: number): void {
    this.missingInARow = 0;
    const candidate: DateCandidate = {
      anchor: anchorOf(this.bootId, serverDate, sentMono, receivedMono),
      sentMono,
      receivedMono,
    };
    const wall = this.p.clock.now();
    const localAt = wall - (this.p.mono() - candidate.anchor.mono);
    const ntp = this.p.ntp();
    const v = judgeServerDate({
      candidate,
      current: this.anchor,
      pending: this.pending,
      localAt,
      ntp,
      boundMs: this.p.boundMs,
    });
    if (v.kind === 'await_second') {
      this.pending = candidate;
      this.reportService({ state: 'unconfirmed', offsetMs: v.offsetMs, jumpMs: v.jumpMs, ntp }, wall);
    } else {
      this.pending = null;
      this.setAnchor(
        v.kind === 'local'
          ? anchorWhenLocalWins(this.anchor, candidate.anchor, localAt, this.p.boundMs)
          : anchorAfter(this.anchor, candidate),
      );
      this.reportService({ state: v.kind === 'local' ? 'off' : 'ok', offsetMs: v.offsetMs, jumpMs: null, ntp }, wall);
    }
    this.remeasure();
  }

  /** An answer came without a `Date` header, or with one that cannot be read (`header`: what it said). */
  noteMissingDate(header: string | null): void {
    this.missingInARow++;
    if (this.missingInARow < MISSING_DATE_LIMIT || this.service?.state === 'no_date') return;
    this.pending = null;
    this.reportService(
      {
        state: 'no_date',
        offsetMs: null,
        jumpMs: null,
        ntp: this.p.ntp(),
        header: header === null ? null : header.slice(0, 80),
      },
      this.p.clock.now(),
    );
  }

  /**
   * The skew again (an answer came, the wall clock stepped): reported when it became known or
   * moved by more than a `Date` can tell, so a clock that goes wrong mid-boot is said at once.
   */
  remeasure(): void {
    const skew = this.skewMs();
    const before = this.reportedSkew;
    if (
      before !== undefined &&
      (skew === null) === (before === null) &&
      Math.abs((skew ?? 0) - (before ?? 0)) <= ANCHOR_TOLERANCE_MS
    )
      return;
    this.reportedSkew = skew;
    this.p.onSkew?.(skew);
  }

  private setAnchor(next: Anchor): void {
    if (next === this.anchor) return;
    const first = this.anchor === null;
    this.anchor = next;
    try {
      writeSetting(this.p.db, settingKeys.timeAnchor, next);
    } catch {
      /* kept in memory; a restart re-anchors at its first answer */
    }
    if (first) this.p.onFirstAnchor?.(next);
  }

  /** Told on a change of state or NTP state, or of the offset by more than two `Date`s can tell. */
  private reportService(
    r: {
      state: ServiceClockState;
      offsetMs: number | null;
      jumpMs: number | null;
      ntp: NtpSync;
      header?: string | null;
    },
    at: number,
  ): void {
    const before = this.service;
    const same =
      before !== null &&
      before.state === r.state &&
      before.ntp === r.ntp &&
      (before.offsetMs === null) === (r.offsetMs === null) &&
      Math.abs((before.offsetMs ?? 0) - (r.offsetMs ?? 0)) <= AGREEMENT_MS;
    if (same) return;
    this.service = {
      at,
      state: r.state,
      offsetMs: r.offsetMs,
      jumpMs: r.jumpMs,
      ntp: r.ntp,
      boundMs: this.p.boundMs,
      ...(r.header !== undefined ? { header: r.header } : {}),
    };
    this.p.onServiceClock?.(this.service, before);
  }
}
