import type { Credential } from '../../domain/people/credential.js';
import type { PunchResult } from '../../domain/punch/punch.js';
import { punchForgottenPin } from '../capture/forgot-pin.js';
import { nextIdAtPinPrompt, pinPromptDeps, type PinPromptDeps } from '../capture/pin-prompt-line.js';
import { ScanGate } from '../capture/scan-gate.js';
import { EnrollArm } from '../identity/enroll-arm.js';
import { PinChallenge } from '../identity/pin-challenge.js';
import type { PunchAnswer } from '../receipts/receipts.js';
import { CaptureCounts } from '../status/capture-counts.js';
import type { AgentParts } from './agent-parts.js';

/**
 * The Agent's punch path (facade/agent.ts delegates to it): a credential scanned or typed, the PIN step and its
 * challenge, an armed enrollment taking a badge scan, "esqueci meu PIN", and the answer every punch gets (counted,
 * its receipt and day attached, told to the screen and the photo desk). Apart from the facade, which only passes
 * these calls on, so that the one state a punch goes through lives in one place.
 */
export class PunchDesk {
  private readonly scans: ScanGate;
  readonly enrollArm: EnrollArm;
  private readonly pinChallenge: PinChallenge;
  /** What tells a PIN from the next person's ID at a PIN prompt (pin-prompt-line.ts). */
  private readonly pinPrompt: PinPromptDeps;
  /** Punches captured since start by outcome, and those refused for want of storage (metrics, status). */
  readonly captures = new CaptureCounts();

  constructor(
    private readonly p: AgentParts,
    /** The agent is stopping: a punch is answered `shutting_down`. */
    private readonly stopping: () => boolean,
  ) {
    this.scans = new ScanGate(p.clock);
    this.enrollArm = new EnrollArm(p.clock, p.admin);
    this.pinChallenge = new PinChallenge(p.clock);
    this.pinPrompt = pinPromptDeps(p);
  }

  /**
   * Takes a scanned or typed credential (and the PIN when one is required) and answers only
   * after the punch is committed. A badge scan while enrollment is armed enrolls it instead.
   */
  async punch(credential: Credential, opts: { pin?: string; offerPinChallenge?: boolean } = {}): Promise<PunchAnswer> {
    if (this.stopping()) return this.answer({ ok: false, reason: 'shutting_down' });
    const enrolled = this.enrollArm.takeScan(credential);
    if (enrolled) return this.answer(enrolled);
    // A known ID typed at the PIN step is the next person's, not a wrong PIN (issue 29).
    const next = opts.pin === undefined ? null : await nextIdAtPinPrompt(this.pinPrompt, credential, opts.pin);
    if (next) return this.punch(next, { offerPinChallenge: true });
    const r = await this.p.capture.punch(credential, opts.pin === undefined ? {} : { pin: opts.pin });
    return this.answer(opts.offerPinChallenge ? this.pinChallenge.offer(r, credential) : r);
  }

  /**
   * The PIN for the scan that got `pinChallenge`; single use, and only within PIN_CHALLENGE_MS of the
   * scan. A known ID instead closes the challenge and starts that person's punch (pin-prompt-line.ts).
   */
  async answerPin(challenge: string, pin: string): Promise<PunchAnswer> {
    const awaited = this.pinChallenge.peek(challenge);
    const next = awaited ? await nextIdAtPinPrompt(this.pinPrompt, awaited, pin) : null;
    if (next) {
      this.pinChallenge.drop(challenge);
      return this.punch(next, { offerPinChallenge: true });
    }
    const credential = this.pinChallenge.take(challenge);
    if (!credential) {
      return this.answer({ ok: false, reason: 'pin_expired' });
    }
    return this.punch(credential, { pin });
  }

  /**
   * "Esqueci meu PIN" on the PIN step of `target` (forgot-pin.ts): the punch held for the manager, a reset request
   * left.
   */
  async forgotPin(target: { credential: Credential } | { challenge: string }): Promise<PunchAnswer> {
    if (this.stopping()) return this.answer({ ok: false, reason: 'shutting_down' });
    const credential = 'challenge' in target ? this.pinChallenge.take(target.challenge) : target.credential;
    if (!credential) return this.answer({ ok: false, reason: 'pin_expired' });
    return this.answer(await punchForgottenPin(this.p, credential));
  }

  /**
   * A badge from a reader (`source`: 'hid:<name>', 'wedge', …). Null when it is the same scan
   * already taken by another source.
   */
  async scanned(code: string, source: string): Promise<PunchAnswer | null> {
    if (this.scans.sameScanOtherWay(code, source)) return null;
    return this.punch({ kind: 'badge', value: code }, { offerPinChallenge: true });
  }

  private answer(r: PunchResult): PunchAnswer {
    this.captures.note(r, this.p.clock.now());
    const a = this.p.days.attach(this.p.receipts.attach(r));
    this.p.events.emit('punch', a);
    this.p.events.statusSoon();
    this.p.photos?.punched(a);
    return a;
  }
}
