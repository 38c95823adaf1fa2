/**
 * Figures of one fleet run (fleet.bench.ts): for the fleet from the mock's log (what the account
 * saw), for each terminal from its tap (terminal-tap.ts) and its capture times. Pure.
 */
import type { WindowRule } from '../../src/domain/rate/sliding-window.js';
import type { RequestLogEntry } from '../../src/mock/state.js';
import type { Tapped } from './terminal-tap.js';

export type TerminalStats = {
  requests: number;
  refused: number;
  refusedShare: number;
  /** Its requests not answered 429 ÷ (its even share of the limit × the fleet's windows). */
  use: number;
  /** Longest time with punches captured and not delivered during which it sent no POST /times (ms). */
  longestWaitMs: number;
  /** From the fleet's first punch to this terminal's last delivery (ms). */
  doneAfterMs: number;
};

export type FleetFigures = {
  /** Requests arrived at the mock from the first punch to the last delivery. */
  requests: number;
  admitted: number;
  refused: number;
  refusedShare: number;
  /** Windows from the first punch to the last delivery, the last counted whole. */
  windows: number;
  use: number;
  /**
   * Use a perfect limiter (no round trip, nothing but punches) gets from the same arrivals, after the same requests
   * before the first punch.
   */
  idealUse: number;
  /**
   * windowMs ÷ the median of a[i + limit] − a[i] over admitted arrivals: how fast slots come back while a backlog lasts
   * (1 = perfect).
   */
  drainRate: number | null;
  spreadMs: number;
  /**
   * The finish spread of a perfect limiter serving the fleet's punches oldest first (idealSends):
   * not 0, since one terminal's last punch may come well before another's.
   */
  idealSpreadMs: number;
  terminals: TerminalStats[];
};

/**
 * Windows a sliding window needs for these punches: each goes at its arrival or when the request
 * `limit` before it has left the window, whichever is later. `prior`: requests already in the window
 * at the first punch (the roster syncs of a cold start). From the first arrival to the last send.
 */
export function idealWindows(arrivals: readonly number[], rule: WindowRule, prior: readonly number[] = []): number {
  const t = [...arrivals].sort((a, b) => a - b);
  const sent: number[] = [...prior].sort((a, b) => a - b);
  for (const a of t) {
    const i = sent.length;
    sent.push(Math.max(a, i >= rule.limit ? (sent[i - rule.limit] as number) + rule.windowMs : 0));
  }
  return ((sent[sent.length - 1] as number) - (t[0] as number)) / rule.windowMs + 1;
}

/** When a perfect limiter sends each punch, serving them in the order they were captured (as idealWindows). */
export function idealSends(
  arrivals: readonly number[],
  rule: WindowRule,
  prior: readonly number[] = [],
): Map<number, number> {
  const order = arrivals.map((a, i) => ({ a, i })).sort((x, y) => x.a - y.a);
  const sent: number[] = [...prior].sort((a, b) => a - b);
  const at = new Map<number, number>();
  for (const { a, i } of order) {
    const k = sent.length;
    const t = Math.max(a, k >= rule.limit ? (sent[k - rule.limit] as number) + rule.windowMs : 0);
    sent.push(t);
    at.set(i, t);
  }
  return at;
}

/** Longest stretch with punches waiting (captured, not delivered) and no POST /times sent. */
export function longestWait(captured: readonly number[], tapped: readonly Tapped[], end: number): number {
  type Ev = { at: number; kind: 'capture' | 'deliver' | 'send' };
  const evs: Ev[] = captured.map((at) => ({ at, kind: 'capture' as const }));
  for (const r of tapped) {
    if (!isPost(r)) continue;
    evs.push({ at: r.sentAt, kind: 'send' });
    if (r.status !== null && r.status >= 200 && r.status < 300 && r.answeredAt !== null)
      evs.push({ at: r.answeredAt, kind: 'deliver' });
  }
  evs.sort((a, b) => a.at - b.at);
  let pending = 0;
  let since = 0;
  let longest = 0;
  for (const e of evs) {
    if (e.kind === 'capture') {
      if (pending === 0) since = e.at;
      pending++;
    } else if (e.kind === 'deliver') {
      pending = Math.max(0, pending - 1);
    } else {
      if (pending > 0) longest = Math.max(longest, e.at - since);
      since = e.at;
    }
  }
  if (pending > 0) longest = Math.max(longest, end - since);
  return longest;
}

/** windowMs ÷ median over i of t[i + limit] − t[i] (as drain.bench's slot reuse); null with too few arrivals. */
export function drainRate(arrivals: readonly number[], rule: WindowRule): number | null {
  const t = [...arrivals].sort((a, b) => a - b);
  const gaps: number[] = [];
  for (let i = 0; i + rule.limit < t.length; i++) gaps.push((t[i + rule.limit] as number) - (t[i] as number));
  if (gaps.length === 0) return null;
  gaps.sort((a, b) => a - b);
  return rule.windowMs / (gaps[Math.floor((gaps.length - 1) / 2)] as number);
}

const isPost = (r: { method: string; path: string }) => r.method === 'POST' && r.path.endsWith('/times');

export function fleetFigures(o: {
  rule: WindowRule;
  requests: RequestLogEntry[];
  taps: Tapped[][];
  captured: number[][];
}): FleetFigures {
  const { rule } = o;
  const first = Math.min(...o.captured.flat());
  const doneAt = o.taps.map((log) =>
    Math.max(
      first,
      ...log
        .filter((r) => isPost(r) && r.status !== null && r.status < 300 && r.answeredAt !== null)
        .map((r) => r.answeredAt as number),
    ),
  );
  const last = Math.max(...doneAt);
  const span = o.requests.filter((r) => r.at >= first && r.at <= last);
  const admitted = span.filter((r) => r.counted).length;
  const refused = span.filter((r) => r.status === 429).length;
  const windows = (last - first) / rule.windowMs + 1;
  const n = o.taps.length;
  const terminals = o.taps.map((log, i): TerminalStats => {
    const mine = log.filter((r) => r.sentAt >= first && r.sentAt <= last);
    const refusedHere = mine.filter((r) => r.status === 429).length;
    return {
      requests: mine.length,
      refused: refusedHere,
      refusedShare: mine.length > 0 ? refusedHere / mine.length : 0,
      use: (mine.length - refusedHere) / ((rule.limit / n) * windows),
      longestWaitMs: longestWait(o.captured[i] ?? [], log, last),
      doneAfterMs: (doneAt[i] as number) - first,
    };
  });
  const done = terminals.map((t) => t.doneAfterMs);
  const punches = o.captured.flat();
  const prior = o.requests.filter((r) => r.counted && r.at < first && r.at > first - rule.windowMs).map((r) => r.at);
  // Each terminal's last punch as a perfect oldest-first limiter sends it.
  const sends = idealSends(punches, rule, prior);
  const owner = o.captured.flatMap((c, t) => c.map(() => t));
  const idealDone = o.captured.map((_, t) =>
    Math.max(...[...sends].filter(([i]) => owner[i] === t).map(([, at]) => at)),
  );
  return {
    requests: span.length,
    admitted,
    refused,
    refusedShare: span.length > 0 ? refused / span.length : 0,
    windows,
    use: admitted / (rule.limit * windows),
    idealUse:
      punches.length /
      (rule.limit *
        idealWindows(
          punches,
          rule,
          o.requests.filter((r) => r.counted && r.at < first && r.at > first - rule.windowMs).map((r) => r.at),
        )),
    drainRate: drainRate(
      span.filter((r) => r.counted).map((r) => r.at),
      rule,
    ),
    spreadMs: Math.max(...done) - Math.min(...done),
    idealSpreadMs: Math.max(...idealDone) - Math.min(...idealDone),
    terminals,
  };
}
