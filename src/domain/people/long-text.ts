/**
 * Strings from the service and the configuration are data of any length (issue 23): nothing may
 * refuse a name, a leave's type or a site's name for being long. The only bound is one that
 * protects memory, and it is met by cutting, never by failing. Pure.
 */

/**
 * The most characters (UTF-16 code units) one field keeps: 64 Ki. The contract's SERVICE_TEXT_MAX is the same number.
 */
export const FIELD_TEXT_MAX = 65_536;

/** What marks a cut: the reader sees that the text goes on. */
export const CUT_MARK = '…';

/**
 * `text` itself when it has at most `max` characters; else its start and the cut mark, `max`
 * characters in all, never ending on half of a surrogate pair (an emoji is kept whole or left out).
 */
export function cutText(text: string, max: number): string {
  if (!Number.isSafeInteger(max) || max < 1)
    throw new RangeError(`cutText: max must be a positive integer, got ${max}`);
  if (text.length <= max) return text;
  let end = max - CUT_MARK.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, Math.max(0, end)) + CUT_MARK;
}

/** How deep `clipStrings` goes: answers are a few levels deep; anything deeper is left as it is. */
const MAX_DEPTH = 32;

/**
 * Every string in `value` (plain objects and arrays, any depth up to 32) cut to `max` characters.
 * Copy on write: the same object comes back when nothing was cut, and the agent's own objects are
 * never changed. `cut` collects the paths of what was cut ("day.leave.type"), for the log.
 */
export function clipStrings(value: unknown, max: number, cut: string[] = [], path = '', depth = 0): unknown {
  if (typeof value === 'string') {
    if (value.length <= max) return value;
    cut.push(path || '(value)');
    return cutText(value, max);
  }
  if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    value.forEach((item, i) => {
      const next = clipStrings(item, max, cut, `${path}${path ? '.' : ''}${i}`, depth + 1);
      if (next !== item) (copy ??= [...(value as unknown[])])[i] = next;
    });
    return copy ?? value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  const obj = value as Record<string, unknown>;
  let copy: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(obj)) {
    const next = clipStrings(v, max, cut, `${path}${path ? '.' : ''}${k}`, depth + 1);
    if (next !== v) (copy ??= { ...obj })[k] = next;
  }
  return copy ?? obj;
}

/** UTF-8 bytes of `text` (a QR code's capacity is counted in bytes). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i += 1;
    } else n += 3;
  }
  return n;
}
