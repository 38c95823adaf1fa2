/**
 * One-time codes for the page token (src/contract/screen-code.ts): issued by the terminal for the
 * browser it starts, each good once and for CODE_TTL_MS, so a code read from the process list is
 * worthless once the browser has used it, or soon after. Only digests are kept; codes are never logged.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../domain/time/clock.js';

export const CODE_TTL_MS = 120_000;
/** Outstanding codes at most: a browser restarting in a loop cannot pile them up. */
const MAX_CODES = 4;

const digestOf = (code: string): string => createHash('sha256').update(code, 'utf8').digest('hex');

export class OneTimeCodes {
  private readonly until = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  issue(): string {
    const now = this.clock.now();
    for (const [d, u] of this.until) if (u <= now) this.until.delete(d);
    while (this.until.size >= MAX_CODES) {
      const oldest = this.until.keys().next().value;
      if (oldest === undefined) break;
      this.until.delete(oldest);
    }
    const code = randomBytes(16).toString('hex');
    this.until.set(digestOf(code), now + CODE_TTL_MS);
    return code;
  }

  /** True once for a code issued less than CODE_TTL_MS ago; the code is gone afterwards either way. */
  take(code: string): boolean {
    const d = digestOf(code);
    const until = this.until.get(d);
    this.until.delete(d);
    return until !== undefined && this.clock.now() < until;
  }
}
