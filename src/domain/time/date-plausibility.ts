/**
 * Whether a service's `Date` may anchor the terminal's time (issue 23). A gateway or a service
 * whose clock is a year ahead must not date punches a year ahead; a dead RTC must not keep the
 * terminal in 2000 either. Who wins depends on what is known of this machine's clock:
 * - NTP-synchronised: a `Date` within `boundMs` of it anchors as before; one further off loses, and
 *   the terminal keeps its own time (the punches are marked, the operator is told);
 * - not synchronised, or not known: a `Date` within `boundMs` of the time in force (the anchor
 *   carried forward, else the wall clock) anchors; one further off needs a second answer that
 *   agrees with it, from a request sent after the first answer came, before it moves anything.
 * Pure: readings are passed in.
 */
import { ANCHOR_TOLERANCE_MS, type Anchor } from './anchored-time.js';

/** This machine's NTP state as the system tells it ('unknown': nothing could tell). */
export type NtpSync = 'yes' | 'no' | 'unknown';

/** What the terminal makes of the service's clock, as status, doctor and metrics say it. */
export type ServiceClockState = 'ok' | 'off' | 'unconfirmed' | 'no_date';

/** One answer's `Date` as an anchor, with the monotonic readings around its request. */
export type DateCandidate = { anchor: Anchor; sentMono: number; receivedMono: number };

export type DateJudgement =
  /** Use it (through betterAnchor): it agrees with what is known, or a second answer confirmed it. */
  | { kind: 'anchor'; offsetMs: number }
  /** This machine is NTP-synchronised and the service is off by more than the bound: keep the local time. */
  | { kind: 'local'; offsetMs: number }
  /** Far from the time in force while this clock is not known to be right: wait for a second answer. */
  | { kind: 'await_second'; offsetMs: number; jumpMs: number };

export type DateJudgeInput = {
  candidate: DateCandidate;
  /** The anchor in force (another boot's does not count). */
  current: Anchor | null;
  /** A far `Date` waiting for a second answer, if any. */
  pending: DateCandidate | null;
  /** This machine's wall clock at the candidate's monotonic reading. */
  localAt: number;
  ntp: NtpSync;
  boundMs: number;
};

/** Two `Date` headers agree within this (each is good to about ±0.5 s plus half its round trip). */
export const AGREEMENT_MS = 2 * ANCHOR_TOLERANCE_MS;

/**
 * How far off a candidate's anchor may be by the way it was measured: the header's half second
 * (ANCHOR_TOLERANCE_MS covers it) plus half of its exchange, which may be long (a slow hop, a busy
 * box): a disagreement within this shows nothing about the service's clock.
 */
export function uncertaintyOf(c: DateCandidate): number {
  return Math.max(0, c.receivedMono - c.sentMono) / 2;
}

/** The anchor's time carried forward to the monotonic reading `mono`. */
export function predictAt(anchor: Anchor, mono: number): number {
  return anchor.serverMs + (mono - anchor.mono);
}

export function judgeServerDate(i: DateJudgeInput): DateJudgement {
  const c = i.candidate.anchor;
  // The service's clock minus this machine's: what status and the metric report.
  const offsetMs = Math.round(c.serverMs - i.localAt);
  const bound = i.boundMs + uncertaintyOf(i.candidate);
  if (i.ntp === 'yes') return Math.abs(offsetMs) > bound ? { kind: 'local', offsetMs } : { kind: 'anchor', offsetMs };
  const current = i.current && i.current.bootId === c.bootId ? i.current : null;
  const jumpMs = Math.round(c.serverMs - (current ? predictAt(current, c.mono) : i.localAt));
  if (Math.abs(jumpMs) <= bound) return { kind: 'anchor', offsetMs };
  if (i.pending && confirms(i.pending, i.candidate)) return { kind: 'anchor', offsetMs };
  return { kind: 'await_second', offsetMs, jumpMs };
}

/** `second` confirms `first`: same boot, sent after `first` was answered, and the same clock within AGREEMENT_MS. */
export function confirms(first: DateCandidate, second: DateCandidate): boolean {
  if (first.anchor.bootId !== second.anchor.bootId) return false;
  // Answers to requests that were out together may come from one cache or one wrong hop: not independent.
  if (second.sentMono < first.receivedMono) return false;
  return (
    Math.abs(predictAt(first.anchor, second.anchor.mono) - second.anchor.serverMs) <=
    AGREEMENT_MS + uncertaintyOf(first) + uncertaintyOf(second)
  );
}

/**
 * The anchor to use after an answer that may anchor: the one in force when the candidate agrees
 * with it within what a `Date` and the candidate's own exchange can tell (a long exchange says
 * little), else the candidate (betterAnchor's rule for a precise one).
 */
export function anchorAfter(current: Anchor | null, candidate: DateCandidate): Anchor {
  const c = candidate.anchor;
  if (!current || current.bootId !== c.bootId) return c;
  return Math.abs(predictAt(current, c.mono) - c.serverMs) > ANCHOR_TOLERANCE_MS + uncertaintyOf(candidate)
    ? c
    : current;
}

/**
 * The anchor to keep when this machine's (synchronised) clock wins: the one in force if it agrees
 * with this clock within `boundMs`, else this clock itself at the candidate's moment, so punches
 * are anchored (not waiting for a `Date` that will not come right) at the local time.
 */
export function anchorWhenLocalWins(
  current: Anchor | null,
  candidate: Anchor,
  localAt: number,
  boundMs: number,
): Anchor {
  if (
    current &&
    current.bootId === candidate.bootId &&
    Math.abs(predictAt(current, candidate.mono) - localAt) <= boundMs
  )
    return current;
  return { bootId: candidate.bootId, serverMs: localAt, mono: candidate.mono };
}

/** An offset as people read it: "45 s", "12 min", "2.0 h", "365 d" (sign dropped). */
export function describeOffset(ms: number): string {
  const a = Math.abs(ms);
  if (a < 90_000) return `${Math.round(a / 1000)} s`;
  if (a < 90 * 60_000) return `${Math.round(a / 60_000)} min`;
  if (a < 48 * 3_600_000) return `${(a / 3_600_000).toFixed(1)} h`;
  return `${Math.round(a / 86_400_000)} d`;
}
