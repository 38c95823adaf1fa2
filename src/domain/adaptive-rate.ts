/**
 * AIMD (additive increase, multiplicative decrease) of this terminal's own request limit, for
 * terminals that share an account's limit without a shared window: each 429 says the fleet as a
 * whole went over, so the terminal that got it halves its limit, and earns it back slowly while no
 * 429 comes. Terminals that cut and grow by the same rule tend towards shares of the account (a
 * bigger one loses more per cut). Pure: the caller passes the time and any randomness.
 */

export type AimdRule = {
  /** The configured limit: never above it. */
  ceiling: number;
  windowMs: number;
  /** Factor of a cut (0 < decrease < 1). */
  decrease: number;
  /** Requests per window earned back for each whole window without a 429. */
  increasePerWindow: number;
};

export type AimdState = {
  /** Real-valued so a small step (a fraction of a request per window) still adds up; see `aimdLimit`. */
  limit: number;
  /** When the last cut was made; null before the first. */
  lastCutAt: number | null;
  /** Start of the current stretch without a 429: whole windows from here earn requests back. */
  calmSince: number;
};

/**
 * Earning back 1/60 of the configured limit per window is "+1 per window" at the account's 60, and
 * keeps the same pace (and the same few 429s per cycle) when a test scales the limit down. Faster
 * earning means more 429s: a fleet of N sharing C overruns about every C/(2·N²·step) windows.
 */
export const EARN_BACK_SHARE = 1 / 60;

export function aimdRule(ceiling: number, windowMs: number): AimdRule {
  return { ceiling, windowMs, decrease: 0.5, increasePerWindow: ceiling * EARN_BACK_SHARE };
}

export function aimdStart(rule: AimdRule, now: number): AimdState {
  return { limit: rule.ceiling, lastCutAt: null, calmSince: now };
}

/**
 * The limit in force: the nearest whole number (flooring would leave each terminal half a request
 * short on average), at least one (a terminal must always be able to send).
 */
export function aimdLimit(state: AimdState): number {
  return Math.max(1, Math.round(state.limit));
}

/**
 * The state at `now`, after an answer that was (`rateLimited`) or was not a 429 — or, with
 * rateLimited false, just time passing. At most one cut per window: the 429s of one burst (every
 * request that was in flight) are one signal, and the cut needs a window to show its effect.
 *
 * `jitter` in [0, 1): after a cut, earning back starts that share of a window later. Terminals that
 * were cut together (all of them, by the first burst of a backlog) would otherwise grow in step and
 * all overrun the account at the same moment again, and all cut again: one grows first instead.
 */
export function aimdNext(state: AimdState, rule: AimdRule, now: number, rateLimited: boolean, jitter = 0): AimdState {
  let { limit, calmSince } = state;
  // Before calmSince (jittered, or a clock that went back): nothing earned yet.
  const calmWindows = Math.max(0, Math.floor((now - calmSince) / rule.windowMs));
  if (calmWindows > 0) {
    limit = Math.min(rule.ceiling, limit + calmWindows * rule.increasePerWindow);
    calmSince += calmWindows * rule.windowMs;
  }
  if (!rateLimited) return { limit, lastCutAt: state.lastCutAt, calmSince };
  const last = state.lastCutAt;
  const mayCut = last === null || now < last || now - last >= rule.windowMs;
  if (!mayCut) return { limit, lastCutAt: last, calmSince: Math.max(calmSince, now) };
  const spread = Math.min(Math.max(jitter, 0), 1) * rule.windowMs;
  return { limit: Math.max(1, Math.min(rule.ceiling, limit) * rule.decrease), lastCutAt: now, calmSince: now + spread };
}

/** The wall clock stepped by `ms`: the cut and the calm stretch move with it (as rate slots do). */
export function aimdShift(state: AimdState, ms: number): AimdState {
  return { limit: state.limit, lastCutAt: state.lastCutAt === null ? null : state.lastCutAt + ms, calmSince: state.calmSince + ms };
}
