import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  rateLimitPause,
  type BackoffOptions,
} from '../../src/domain/rate/retry-policy.js';

const opts: BackoffOptions = { baseMs: 1_000, maxMs: 30_000 };
const fixed = (r: number) => (): number => r;
const nominal = (attempt: number, o: BackoffOptions): number =>
  Math.min(o.maxMs, o.baseMs * 2 ** Math.max(0, attempt - 1));

describe('backoffDelay', () => {
  it('stays within [exp/2, exp] of the nominal delay', () => {
    expect(backoffDelay(1, opts, fixed(0))).toBe(500);
    expect(backoffDelay(1, opts, fixed(0.999_999))).toBe(1_000);
    expect(backoffDelay(3, opts, fixed(0))).toBe(2_000);
    expect(backoffDelay(3, opts, fixed(0.5))).toBe(3_000);
  });

  it('grows with the attempt number', () => {
    const delays = [1, 2, 3, 4, 5].map((a) => backoffDelay(a, opts, fixed(0.5)));
    expect(delays).toEqual([750, 1_500, 3_000, 6_000, 12_000]);
  });

  it('is capped at maxMs, even after very many attempts', () => {
    expect(backoffDelay(6, opts, fixed(0.999_999))).toBe(30_000);
    expect(backoffDelay(10, opts, fixed(0))).toBe(15_000);
    for (const attempt of [31, 100, 10_000, Number.MAX_SAFE_INTEGER]) {
      const d = backoffDelay(attempt, opts, fixed(0.999_999));
      expect(d).toBe(30_000);
    }
  });

  it('uses the injected random source, once per call', () => {
    let calls = 0;
    const random = (): number => {
      calls++;
      return 0.25;
    };
    expect(backoffDelay(2, opts, random)).toBe(1_250);
    expect(calls).toBe(1);
    expect(backoffDelay(2, opts, fixed(0.1))).not.toBe(backoffDelay(2, opts, fixed(0.9)));
  });

  it('property: within [exp/2, exp], never above maxMs, non-decreasing in attempt', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 3_600_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, baseMs, maxMs, r) => {
          const o = { baseMs, maxMs };
          const exp = nominal(attempt, o);
          const d = backoffDelay(attempt, o, fixed(r));
          expect(d).toBeGreaterThanOrEqual(exp / 2);
          expect(d).toBeLessThanOrEqual(exp);
          expect(d).toBeLessThanOrEqual(maxMs);
          expect(backoffDelay(attempt + 1, o, fixed(r))).toBeGreaterThanOrEqual(d);
        },
      ),
    );
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2024-05-10T12:00:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('5', now)).toBe(5_000);
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 5 ', now)).toBe(5_000);
  });

  it('reads an HTTP-date: the difference from now, or 0 when already past', () => {
    expect(parseRetryAfter('Fri, 10 May 2024 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Fri, 10 May 2024 13:00:00 GMT', now)).toBe(3_600_000);
    expect(parseRetryAfter('Fri, 10 May 2024 11:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:00 GMT', now)).toBe(0);
  });

  it('returns null for unreadable values', () => {
    for (const v of ['soon', '-1', '1.5', '', '   ', '+5', '5s', '1e3', 'Infinity', 'NaN']) {
      expect(parseRetryAfter(v, now), JSON.stringify(v)).toBeNull();
    }
  });

  it('returns null when the header is absent', () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });

  // V8's Date.parse accepts almost any text holding a number as a year ("wait 2099" is
  // 2099-01-01), so a garbled header can pause every request of the terminal for decades.
  it('garbage holding a year-like number is not read as an HTTP-date', () => {
    for (const v of ['wait 2099', 'after 2099', 'x 2030']) {
      expect(parseRetryAfter(v, now), JSON.stringify(v)).toBeNull();
    }
  });
});

describe('rateLimitPause', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  it('follows the server, falls back to one window, and never pauses for more than the cap', () => {
    expect(rateLimitPause('7', now, 60_000)).toBe(7_000);
    expect(rateLimitPause('Sat, 21 Nov 2026 12:00:30 GMT', now, 60_000)).toBe(30_000);
    expect(rateLimitPause(null, now, 60_000)).toBe(60_000);
    expect(rateLimitPause('soon', now, 1_000)).toBe(1_000);
    expect(rateLimitPause('99999999', now, 60_000)).toBe(MAX_RETRY_AFTER_MS);
    expect(rateLimitPause('Fri, 01 Jan 2100 00:00:00 GMT', now, 60_000)).toBe(MAX_RETRY_AFTER_MS);
  });
  it('accepts the obsolete RFC 850 and asctime date forms', () => {
    expect(parseRetryAfter('Saturday, 21-Nov-26 12:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Sat Nov 21 12:00:20 2026', now)).toBe(20_000);
  });
});
