/**
 * Decoder for badge readers that present themselves as a keyboard and send boot-protocol input
 * reports: `[modifier, reserved, k1, k2, k3, k4, k5, k6]` (8 bytes), or the same after a report id
 * byte (9 bytes, what some platforms hand over for devices with numbered reports).
 *
 * Pure: no I/O, no clock, no timers. The caller pushes each report as it arrives and gets back
 * what it completed; errors are events too (the reader counts and logs them), and `errors` counts
 * them here as well for status.
 *
 * Rules:
 * - Layout: 8 = boot report; 9 = report id first (ignored); 'auto' takes 8 or 9 by length. Any
 *   other length is an error ('wrong report length N') and the report is dropped (the code being
 *   assembled is kept: composite devices send other reports on the same interface).
 * - Key down = a usage present in this report and absent from the previous one. A held key that
 *   repeats in successive reports counts once; a release report (no keys) clears the state; keys
 *   new in the same report (roll-over) are taken in array order. Usages 0xe0–0xe7 (modifier keys)
 *   in the array are ignored: the modifier byte says what is held.
 * - Shift (left 0x02 or right 0x20 in the modifier byte of the report where the key goes down)
 *   selects the shifted character. A character key with Ctrl, Alt or GUI held is garbage.
 * - Phantom state (0x01 ErrorRollOver, also 0x02 POSTFail / 0x03 ErrorUndefined, in any slot):
 *   error (once for a run of such reports); the report is ignored (the previous key set stays)
 *   and the code being assembled is dropped, since keys may have been lost in the meantime.
 * - A configured terminator (Enter or keypad Enter = 'enter', Tab = 'tab') ends the code. With no
 *   code before it: error 'terminator with no code'. Enter or Tab when not configured, Escape,
 *   Backspace, a usage outside the table (src/input/hid-usage.ts): error at once, and the code
 *   being assembled is dropped — everything up to the next terminator is discarded (one error per
 *   dropped code, not one per key).
 * - More than `maxKeys` characters without a terminator: error, the buffer is reset and keys are
 *   discarded until the next terminator, which ends the episode silently. So 10,000 keys with no
 *   terminator are one error and nothing else; the scan after the next terminator decodes.
 */
import { MAX_CODE_LENGTH } from '../domain/people/credential.js';
import { isModifierUsage, keyFor, SHIFT_MASK, USAGE, usageName } from './hid-usage.js';

/** What a report decoder gives back for one report. */
export type DecodeEvent = { type: 'code'; code: string } | { type: 'error'; reason: string };

/** The surface both decoders offer (structurally what src/input/hid-reader.ts consumes). */
export interface ReportDecoder {
  push(report: Uint8Array): DecodeEvent[];
  /** Forget any partial code and key state (e.g. after the device was reopened). */
  reset(): void;
  /** Errors reported since construction. */
  readonly errors: number;
}

export type BootTerminator = 'enter' | 'tab';

export type BootKeyboardOptions = {
  layout: 'auto' | 8 | 9;
  terminators: BootTerminator[];
  /** Most characters one code may have; default MAX_CODE_LENGTH (64). */
  maxKeys: number;
};

export const defaultBootKeyboardOptions: Readonly<BootKeyboardOptions> = Object.freeze<BootKeyboardOptions>({
  layout: 'auto',
  terminators: ['enter'],
  maxKeys: MAX_CODE_LENGTH,
});

type State = 'collecting' | 'dropping';

const PHANTOM: Record<number, string> = {
  [USAGE.errorRollOver]: 'rollover error (too many keys down), report ignored; code dropped',
  [USAGE.postFail]: 'keyboard POST failure reported, report ignored; code dropped',
  [USAGE.errorUndefined]: 'undefined keyboard error reported, report ignored; code dropped',
};

const NAMES = { enter: 'Enter', tab: 'Tab', escape: 'Escape', backspace: 'Backspace' } as const;

export class BootKeyboardDecoder implements ReportDecoder {
  private readonly opts: Readonly<BootKeyboardOptions>;
  /** Usages down in the previous accepted report. */
  private held = new Set<number>();
  private buf: string[] = [];
  private state: State = 'collecting';
  private errorCount = 0;
  private inPhantom = false;

  constructor(opts: Partial<BootKeyboardOptions> = {}) {
    const o: BootKeyboardOptions = {
      layout: opts.layout ?? defaultBootKeyboardOptions.layout,
      terminators: [...(opts.terminators ?? defaultBootKeyboardOptions.terminators)],
      maxKeys: opts.maxKeys ?? defaultBootKeyboardOptions.maxKeys,
    };
    if (!Number.isInteger(o.maxKeys) || o.maxKeys < 1)
      throw new RangeError(`maxKeys must be a positive integer, not ${o.maxKeys}`);
    if (o.layout !== 'auto' && o.layout !== 8 && o.layout !== 9) throw new RangeError(`layout must be 'auto', 8 or 9`);
    this.opts = Object.freeze(o);
  }

  get errors(): number {
    return this.errorCount;
  }

  reset(): void {
    this.held = new Set();
    this.buf = [];
    this.state = 'collecting';
    this.inPhantom = false;
  }

  push(report: Uint8Array): DecodeEvent[] {
    const out: DecodeEvent[] = [];
    const at = this.offsetFor(report.length);
    if (at === null) {
      this.fail(out, `wrong report length ${report.length}`);
      return out;
    }
    const modifier = report[at] ?? 0;
    const slots = report.subarray(at + 2, at + 8);

    for (const u of slots) {
      const phantom = PHANTOM[u];
      if (phantom !== undefined) {
        // A device repeating its phantom report while the keys stay down is one episode, one error.
        this.drop(out, phantom, !this.inPhantom);
        this.inPhantom = true;
        return out;
      }
    }
    this.inPhantom = false;

    const down: number[] = [];
    for (const u of slots) if (u !== 0 && !isModifierUsage(u) && !down.includes(u)) down.push(u);

    const shift = (modifier & SHIFT_MASK) !== 0;
    const otherModifiers = (modifier & ~SHIFT_MASK) !== 0;
    for (const u of down) if (!this.held.has(u)) this.keyDown(u, shift, otherModifiers, out);
    this.held = new Set(down);
    return out;
  }

  private offsetFor(length: number): number | null {
    switch (this.opts.layout) {
      case 8:
        return length === 8 ? 0 : null;
      case 9:
        return length === 9 ? 1 : null;
      case 'auto':
        return length === 8 ? 0 : length === 9 ? 1 : null;
    }
  }

  private keyDown(usage: number, shift: boolean, otherModifiers: boolean, out: DecodeEvent[]): void {
    const key = keyFor(usage, shift);
    if (key === null) return this.drop(out, `unknown key usage ${usageName(usage)}; code dropped`);
    switch (key.kind) {
      case 'enter':
      case 'tab':
        if (this.opts.terminators.includes(key.kind)) return this.terminate(out);
        return this.drop(out, `${NAMES[key.kind]} is not a configured terminator; code dropped`);
      case 'escape':
      case 'backspace':
        return this.drop(out, `${NAMES[key.kind]} in a reader's stream; code dropped`);
      case 'char':
        if (otherModifiers) return this.drop(out, `key ${usageName(usage)} with Ctrl, Alt or GUI held; code dropped`);
        return this.append(key.char, out);
    }
  }

  private append(char: string, out: DecodeEvent[]): void {
    if (this.state === 'dropping') return;
    if (this.buf.length >= this.opts.maxKeys) {
      this.drop(out, `more than ${this.opts.maxKeys} keys without a terminator; code dropped`);
      return;
    }
    this.buf.push(char);
  }

  private terminate(out: DecodeEvent[]): void {
    if (this.state === 'collecting') {
      if (this.buf.length === 0) this.fail(out, 'terminator with no code');
      else out.push({ type: 'code', code: this.buf.join('') });
    }
    this.buf = [];
    this.state = 'collecting';
  }

  /** Abandon the code being assembled: one error per abandoned code (`always`: even when already dropping). */
  private drop(out: DecodeEvent[], reason: string, always = false): void {
    if (this.state === 'collecting' || always) this.fail(out, reason);
    this.buf = [];
    this.state = 'dropping';
  }

  private fail(out: DecodeEvent[], reason: string): void {
    this.errorCount++;
    out.push({ type: 'error', reason });
  }
}
