/**
 * What the fleet's scripts may answer, checked before anything is done with it (issue 24): a Redis
 * (or a proxy, or something else on its port) that answers a string, a non-number, a negative or
 * absurd wait or an array of the wrong length is out of reach, not a partner. Trusting such an
 * answer once turned `waitMs: NaN` into a loop of 100,000 script calls per 20 s.
 */
import type { SharedTake } from './shared-window.js';

/** Longest description of a bad answer in a log line or status. */
const MAX_DESCRIPTION = 120;

/** Redis answered something the scripts never return, or an error reply: `answer` says what, printable and short. */
export class BadRedisAnswer extends Error {
  constructor(
    readonly command: string,
    readonly answer: string,
  ) {
    super(`Redis answered ${answer} to ${command}`);
    this.name = 'BadRedisAnswer';
  }
}

/** An answer as a short printable text: control and non-ASCII characters escaped, long ones cut. */
export function describeAnswer(v: unknown): string {
  const text = describe(v, 0);
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

function describe(v: unknown, depth: number): string {
  if (v === null || v === undefined) return 'nil';
  if (typeof v === 'number') return Number.isInteger(v) ? `the integer ${v}` : `the number ${String(v)}`;
  if (typeof v === 'string') return `the string ${printable(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (Buffer.isBuffer(v)) return `${v.length} bytes`;
  if (v instanceof Error) return `the error ${printable(v.message.slice(0, 80))}`;
  if (Array.isArray(v)) {
    if (depth > 1) return `an array of ${v.length}`;
    const shown = v.slice(0, 4).map((x) => describe(x, depth + 1).replace(/^the (integer|string|number) /, ''));
    return `[${shown.join(', ')}${v.length > 4 ? `, … ${v.length} in all` : ''}]`;
  }
  return `a ${typeof v}`;
}

/** JSON-quoted, with everything outside printable ASCII as \u escapes. */
function printable(s: string): string {
  return JSON.stringify(s).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * The take script's `{1, 0}` (taken) or `{0, waitMs}` with 1 <= waitMs <= `maxWaitMs` (a slot frees
 * within one window and the request timeout; a mark expires within that and the hold).
 */
export function takeAnswer(v: unknown, maxWaitMs: number): SharedTake {
  if (Array.isArray(v) && v.length === 2 && isInt(v[0]) && isInt(v[1])) {
    const [ok, wait] = v as [number, number];
    if (ok === 1 && wait === 0) return { ok: true };
    if (ok === 0 && wait >= 1 && wait <= maxWaitMs) return { ok: false, waitMs: wait };
  }
  throw new BadRedisAnswer('the take script', describeAnswer(v));
}

/** An integer in [min, max] (release: 1; restore: how many changed; ZREM: 0 or 1). */
export function countAnswer(v: unknown, command: string, min: number, max: number): number {
  if (isInt(v) && v >= min && v <= max) return v;
  throw new BadRedisAnswer(command, describeAnswer(v));
}

/** An array of at most `maxItems` strings of at most `maxLength` characters (the fleet registry's entries). */
export function stringsAnswer(v: unknown, command: string, maxItems: number, maxLength: number): string[] {
  if (Array.isArray(v) && v.length <= maxItems && v.every((x) => typeof x === 'string' && x.length <= maxLength))
    return v as string[];
  throw new BadRedisAnswer(command, describeAnswer(v));
}

/**
 * An error reply (ReplyError) to a script is an answer of the wrong kind too; anything else (a timeout, a closed
 * connection) passes through.
 */
export function asBadAnswer(e: unknown, command: string): unknown {
  // A refused password stays what it is (redis-fault.ts tells the operator to fix the URL).
  if (e instanceof Error && e.name === 'ReplyError' && !/^(NOAUTH|WRONGPASS|NOPERM)\b/.test(e.message))
    return new BadRedisAnswer(command, `an error reply ${printable(e.message.slice(0, 80))}`);
  return e;
}
