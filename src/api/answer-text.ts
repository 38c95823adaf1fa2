/**
 * Text that came from the wire, made fit for a log line, a status field or an error reason: a
 * body may be compressed bytes, a page of HTML, or a JSON string full of escapes. Whatever it is,
 * what we show is printable, bounded, and says what the body was (length, type, encoding).
 */

/** Characters shown of a body or a string the service sent, unless a caller asks for fewer. */
export const EXCERPT_MAX = 120;

// Control and format characters (C0, C1, DEL, bidi overrides, zero-width), unassigned, private
// use, lone surrogates, line/paragraph separators, and U+FFFD (what undecodable bytes became).
const NOT_PRINTABLE = /[\p{C}\u2028\u2029\uFFFD]/gu;

/**
 * `text` with runs of white space made one space, every character that is not printable made
 * '?', and at most `max` characters (code points) kept, '…' marking a cut.
 */
export function printable(text: string, max = EXCERPT_MAX): string {
  // Only the start can be shown: do not scan megabytes for it.
  const head = text.length > max * 8 ? text.slice(0, max * 8) : text;
  const clean = head.replace(/\s+/g, ' ').trim().replace(NOT_PRINTABLE, '?');
  const chars = Array.from(clean);
  if (chars.length <= max && head.length === text.length) return clean;
  return chars.slice(0, Math.max(0, max - 1)).join('') + '…';
}

/** What the body was, never its bytes: `text/html; charset=utf-8, 312 bytes gzip-encoded`. */
export function describeBody(b: {
  contentType: string | null;
  bytes?: number;
  contentEncoding?: string | null;
}): string {
  const parts = [b.contentType === null ? 'no content type' : printable(b.contentType, 80)];
  if (b.bytes !== undefined) {
    const enc = b.contentEncoding ? ` ${printable(b.contentEncoding, 40)}-encoded` : '';
    parts.push(`${b.bytes} bytes${enc}`);
  }
  return parts.join(', ');
}
