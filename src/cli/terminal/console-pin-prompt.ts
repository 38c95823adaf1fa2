/**
 * The headless console's PIN prompt. A result that asks for a PIN opens it with the agent's one-time
 * challenge; the next line typed answers that challenge (the agent tells the awaited PIN from the
 * next person's ID: agent/capture/pin-prompt-line.ts). It closes after PIN_PROMPT_MS without a key (issue 29:
 * it used to wait a minute), and the next line is then a new ID. A PIN line is never taken as an ID
 * by the console itself: a badge's PIN typed as an ID would register whoever has that number.
 */
import type { Agent } from '../../agent/facade/agent.js';
import { PIN_PROMPT_MS } from '../../contract/pin-prompt.js';
import type { Clock } from '../../domain/time/clock.js';
import type { PunchResult } from '../../domain/punch/punch.js';

export class ConsolePinPrompt {
  private open: { challenge: string; lastKeyAt: number } | null = null;

  /**
   * `clock`: a monotonic reading in production (a step of the wall clock neither ends nor stretches a prompt); injected
   * in tests.
   */
  constructor(
    private readonly agent: Pick<Agent, 'punch' | 'answerPin'>,
    private readonly clock: Clock,
  ) {}

  /** Every result the agent tells of, whoever caused it: one that asks for a PIN opens the prompt. */
  noteResult(r: PunchResult): void {
    if (!r.ok && r.reason === 'pin_required' && r.pinChallenge)
      this.open = { challenge: r.pinChallenge, lastKeyAt: this.clock.now() };
  }

  /** Whether the next line answers a PIN prompt (open, and a key came within PIN_PROMPT_MS). */
  pending(): boolean {
    if (this.open !== null && this.clock.now() - this.open.lastKeyAt > PIN_PROMPT_MS) this.open = null;
    return this.open !== null;
  }

  /** A key typed at the open prompt: a person still typing keeps it open. */
  key(): void {
    if (this.pending() && this.open) this.open.lastKeyAt = this.clock.now();
  }

  /** A typed line: the answer to the open prompt, else an ID. The agent tells of the result (`punch` event). */
  async line(text: string): Promise<void> {
    const challenge = this.pending() ? this.open?.challenge : undefined;
    this.open = null;
    if (challenge) await this.agent.answerPin(challenge, text.trim());
    else await this.agent.punch({ kind: 'id', value: text }, { offerPinChallenge: true });
  }
}
