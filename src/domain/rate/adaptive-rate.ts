/**
 * This terminal's own request limit when terminals share an account's limit without a shared
 * window (issue 14). A 429 says the account as a whole is full; the rule finds this terminal's
 * share of it and keeps to it, because every further 429 costs a whole Retry-After pause:
 *
 * 1. At the configured limit (the ceiling), the first 429 halves the limit, and below the ceiling
 *    the terminal paces its requests (one every window / limit). Terminals that burst together from
 *    the ceiling got unequal parts of that first window (whoever's answers came back first sent
 *    more); paced at equal halves, the next round splits the account about evenly.
 * 2. A 429 in that round (measuring: the pause, then a window) sets the limit to what this terminal
 *    got through since the pause: its share. Any later 429 sets it to what got through in the last
 *    window, but keeps at least FLOOR of the level that held, so one window spoiled by a pause or
 *    another terminal's probe does not collapse it. No 429 while measuring: earning back begins.
 * 3. After a cut the level holds for HOLD_PAUSES times that 429's pause (at least a window), plus a
 *    random share of that again so terminals cut together do not probe together. Then it earns
 *    back: STEP of the ceiling after one calm window, doubling each window (+1, +2, +4… at 60).
 *    A failed probe goes back to the last level that held a whole window and doubles the hold.
 *
 * Why hold so long: each probe that fails pauses its terminal for a Retry-After, its share unused
 * meanwhile; every terminal probing once per 1 to 2 holds, the fleet loses under 1 / HOLD_PAUSES
 * of its throughput to probing. In production a probe's pause is a second or two of a 60 s window
 * (the hold is then about a window); where the window is scaled to a second, a pause is a window.
 * Pure: the caller passes the time, the answer's figures and any randomness.
 */

export type AimdRule = {
  /** The configured limit: never above it. */
  ceiling: number;
  windowMs: number;
};

export type AimdState = {
  /** The level that holds (real-valued; see aimdLimit); the ceiling before any cut. */
  base: number;
  /** When the last cut was made; null at the ceiling. */
  cutAt: number | null;
  /** The pause that 429 imposed: a 429 before it is over answers a request that was in flight then. */
  pauseMs: number;
  /** From cutAt, how long `base` holds before earning back starts (jitter included). */
  holdMs: number;
  /** Halved from the ceiling: a 429 within `holdMs` measures the share. */
  measuring: boolean;
  /** Probes in a row that ended in a 429: each doubles the next hold. */
  failedProbes: number;
};

/** What the terminal knows when a 429 arrives. */
export type RateLimitedAnswer = {
  /** Requests answered other than 429 since the last window began (or since a pause ended, if later). */
  admitted: number;
  /** The Retry-After pause this 429 imposes. */
  pauseMs: number;
  /** In [0, 1): the share of the hold added on top of it. */
  jitter: number;
};

/** The first cut from the ceiling (and again when nothing got through while measuring). */
export const HALVE = 0.5;
/** A cut after the measure keeps at least this share of the level that held. */
export const FLOOR = 0.8;
/** After a cut, the level holds this many times that 429's pause (see above). */
export const HOLD_PAUSES = 25;
/** Earned back after the first calm window past the hold, as a share of the ceiling; then doubling. */
export const STEP = 1 / 60;
/** Answers of requests in flight at a cut come within this, even when the pause is shorter. */
export const IN_FLIGHT_MS = 1_000;

export function aimdRule(ceiling: number, windowMs: number): AimdRule {
  return { ceiling, windowMs };
}

export function aimdStart(rule: AimdRule): AimdState {
  return { base: rule.ceiling, cutAt: null, pauseMs: 0, holdMs: 0, measuring: false, failedProbes: 0 };
}

/** The level at `now` (real-valued: the limit before rounding) and the last one that held a whole window. */
export function aimdLevels(state: AimdState, rule: AimdRule, now: number): { level: number; held: number } {
  if (state.cutAt === null) return { level: rule.ceiling, held: rule.ceiling };
  const past = now - state.cutAt - state.holdMs;
  if (past < 0) return { level: state.base, held: state.base };
  const k = Math.floor(past / rule.windowMs) + 1;
  const at = (n: number) => Math.min(rule.ceiling, state.base + rule.ceiling * STEP * (2 ** Math.min(n, 40) - 1));
  return { level: at(k), held: at(k - 1) };
}

/**
 * The limit in force at `now`: the nearest whole number (flooring would leave each terminal half a
 * request short on average), at least one (a terminal must always be able to send).
 */
export function aimdLimit(state: AimdState, rule: AimdRule, now: number): number {
  return Math.max(1, Math.round(aimdLevels(state, rule, now).level));
}

/** Below the ceiling the terminal spreads its requests over the window (see 1.). */
export function aimdPaced(state: AimdState, rule: AimdRule, now: number): boolean {
  return aimdLimit(state, rule, now) < rule.ceiling;
}

/**
 * The state after a 429 at `now`. A 429 while the last cut's pause lasts answers a request that was
 * in flight at the cut (nothing is sent during a pause): the same signal, no second cut.
 */
export function aimdRateLimited(state: AimdState, rule: AimdRule, now: number, answer: RateLimitedAnswer): AimdState {
  const { cutAt } = state;
  if (cutAt !== null && now >= cutAt && now < cutAt + Math.max(state.pauseMs, IN_FLIGHT_MS)) return state;
  const { level, held } = aimdLevels(state, rule, now);
  const admitted = Math.max(0, answer.admitted);
  const pauseMs = Math.max(0, answer.pauseMs);
  const cut = (base: number, measuring: boolean, failedProbes: number, holdMs: number): AimdState => ({
    base: Math.max(1, Math.min(rule.ceiling, base)),
    cutAt: now,
    pauseMs,
    holdMs,
    measuring,
    failedProbes,
  });
  const hold = (failed: number) => {
    const ms = Math.max(rule.windowMs, HOLD_PAUSES * pauseMs) * 2 ** Math.min(failed, 10);
    return ms * (1 + Math.min(Math.max(answer.jitter, 0), 1));
  };
  // Halve, then measure during the pause and a window of paced sending.
  const measure = (base: number) => cut(base * HALVE, true, 0, pauseMs + rule.windowMs);
  if (state.measuring && cutAt !== null && now < cutAt + state.holdMs) {
    // Nothing got through: halve again and measure again.
    return admitted === 0 ? measure(held) : cut(Math.min(held, admitted), false, 0, hold(0));
  }
  if (level >= rule.ceiling) return measure(rule.ceiling);
  const probing = level > state.base;
  const failed = probing ? state.failedProbes + 1 : 0;
  return cut(Math.max(FLOOR * held, Math.min(held, admitted)), false, failed, hold(Math.max(0, failed - 1)));
}

/** The wall clock stepped by `ms`: the cut moves with it (as rate slots do). */
export function aimdShift(state: AimdState, ms: number): AimdState {
  return { ...state, cutAt: state.cutAt === null ? null : state.cutAt + ms };
}
