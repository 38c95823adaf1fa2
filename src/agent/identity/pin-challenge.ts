/**
 * A badge that needs a PIN: the result carries a one-time challenge, so the screen can ask for the
 * PIN of a scan it only saw as an event (an HID reader's), without knowing the code. One at a time:
 * a terminal has one person in front of it.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../domain/time/clock.js';
import type { Credential } from '../../domain/people/credential.js';
import type { PunchResult } from '../../domain/punch/punch.js';
import { PIN_CHALLENGE_MS } from '../../contract/pin-prompt.js';

export class PinChallenge {
  private pending: { id: string; credential: Credential; until: number } | null = null;

  constructor(private readonly clock: Clock) {}

  /** `r` with a new challenge when it asks for the PIN, else `r` unchanged. */
  offer(r: PunchResult, credential: Credential): PunchResult {
    if (r.ok || r.reason !== 'pin_required') return r;
    const id = randomBytes(16).toString('hex');
    this.pending = { id, credential, until: this.clock.now() + PIN_CHALLENGE_MS };
    return { ...r, pinChallenge: id };
  }

  /**
   * The credential `challenge` was for; single use, and only within PIN_CHALLENGE_MS of the scan. Null: no such
   * challenge now.
   */
  take(challenge: string): Credential | null {
    const c = this.pending;
    if (!c || c.id !== challenge || this.clock.now() > c.until) return null;
    this.pending = null;
    return c.credential;
  }

  /** The credential `challenge` is for while it may still be answered, without using it up. */
  peek(challenge: string): Credential | null {
    const c = this.pending;
    return c && c.id === challenge && this.clock.now() <= c.until ? c.credential : null;
  }

  /** `challenge` is no longer answerable (its prompt was closed by the next person's ID). */
  drop(challenge: string): void {
    if (this.pending?.id === challenge) this.pending = null;
  }
}
