/**
 * Keyboard-wedge burst detector.
 *
 * A USB badge reader in keyboard mode "types" the badge code as a burst of key presses a few
 * milliseconds apart, followed by a terminator (usually Enter). A person types the same keys tens
 * or hundreds of milliseconds apart. This detector tells the two apart so that a burst becomes a
 * badge credential and never lands in a focused field, while keys a person types still reach the
 * keypad, in order, none lost and none duplicated.
 *
 * Pure: no I/O, no timers, no clock. Every key comes with its own timestamp (e.g.
 * `KeyboardEvent.timeStamp` in the renderer, the arrival time of a chunk on standard input in the
 * headless reader), and the caller calls `tick(now)` from its own timer so that keys held back as a
 * possible burst are released when no burst follows. It is bundled into the browser renderer, so
 * it imports nothing but `src/domain` and zod.
 *
 * Rules (times in milliseconds; all comparisons on the timestamps given):
 * - A printable key (one character) is held back while it could still be the start of a burst.
 *   The next printable key continues the run when it comes at most `maxInterKeyMs` after the
 *   previous one (inclusive: a gap of exactly `maxInterKeyMs` is still a burst).
 * - A terminator that comes at most `maxInterKeyMs` after the last key of a run of at least
 *   `minLength` printable keys turns the run into exactly one `scan` (the code, without the
 *   terminator, stamped with the terminator's time). The held keys are never also released as typed.
 * - A larger gap (seen at the next key, or at `tick(now)` once `now - lastKey > holdMs`) releases
 *   everything held as `typed`, in order; the new key starts a fresh run.
 * - A terminator after a short or slow run releases the held keys as typed and then the
 *   terminator itself as typed, so Enter still submits the keypad.
 * - A run that grows past `maxLength` keys is garbage (a reader left without a terminator, a
 *   misconfigured reader, a chattering key): it is dropped, counted in `errors`, and every further
 *   key of the same burst (including its terminator, if it comes within `maxInterKeyMs`) is
 *   swallowed too. The next gap larger than `maxInterKeyMs` ends it and the detector recovers.
 *
 * Keys that are neither printable nor terminators, two kinds (documented choice):
 * - Modifiers and composition keys (Shift, Control, Alt, Meta, CapsLock, Dead, ...): ignored
 *   completely, for timing and for output. Readers press Shift for capital letters; the capital
 *   itself arrives as the printable key ('A'), so the Shift press must neither break nor delay the
 *   burst, and a lone Shift means nothing to the keypad.
 * - Other named keys (Backspace, Escape, Delete, arrows, Tab when it is not a terminator, F-keys,
 *   control characters): a reader never sends them, so they mean a person. They do not count for
 *   timing, but they end the current run: the held keys are released as typed and then the key
 *   itself as typed, which keeps the output in input order (Backspace after "12" deletes the 2).
 *
 * Auto-repeat (a key held down) can produce presses ~20-35 ms apart; callers should drop repeat
 * events (`KeyboardEvent.repeat`) before feeding keys in.
 */
import { z } from 'zod';
import { MAX_CODE_LENGTH } from '../domain/people/credential.js';

export type WedgeOptions = {
  /** Largest gap between consecutive keys of a burst, inclusive. */
  maxInterKeyMs: number;
  /** Fewest printable keys before the terminator for a burst to count as a scan. */
  minLength: number;
  /** Most printable keys in a burst; a longer burst is garbage and is dropped. */
  maxLength: number;
  /** Key names that end a burst (KeyboardEvent.key names, e.g. 'Enter', 'Tab'). */
  terminators: string[];
  /** How long after the last key held keys wait before `tick` releases them as typed. */
  holdMs: number;
};

export type WedgeOutput = { type: 'scan'; code: string; at: number } | { type: 'typed'; key: string; at: number };

/**
 * Defaults that fit common USB readers: they emit keys about 1-15 ms apart (often faster than
 * the 8 ms USB full-speed poll lets a keyboard go, so usually 4-10 ms), while even fast typists
 * rarely go below 40-50 ms between keys and never keep it up for four keys plus Enter. 30 ms sits
 * between the two with room for a reader's jitter. Four keys is below every common badge format
 * (EM4100 prints 8-10 digits, HID Prox 5-10) and far above what a person types inside 30 ms.
 * The longest code the terminal accepts anywhere is MAX_CODE_LENGTH. A person sees what they type
 * appear 40 ms late, which is not noticeable.
 */
export const DEFAULT_WEDGE_OPTIONS: WedgeOptions = {
  maxInterKeyMs: 30,
  minLength: 4,
  maxLength: MAX_CODE_LENGTH,
  terminators: ['Enter'],
  holdMs: 40,
};

const ms = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Configuration schema (e.g. `input.wedge` in the config file); every field has a default. */
export const wedgeOptionsSchema = z
  .object({
    maxInterKeyMs: ms(1, 1_000).default(DEFAULT_WEDGE_OPTIONS.maxInterKeyMs),
    minLength: z.coerce.number().int().min(1).max(MAX_CODE_LENGTH).default(DEFAULT_WEDGE_OPTIONS.minLength),
    maxLength: z.coerce.number().int().min(1).max(MAX_CODE_LENGTH).default(DEFAULT_WEDGE_OPTIONS.maxLength),
    terminators: z
      .array(z.string().min(1))
      .min(1)
      .default(() => [...DEFAULT_WEDGE_OPTIONS.terminators]),
    holdMs: ms(1, 5_000).default(DEFAULT_WEDGE_OPTIONS.holdMs),
  })
  .strict()
  .refine((o) => o.minLength <= o.maxLength, { message: 'minLength must not exceed maxLength', path: ['minLength'] })
  .refine((o) => o.holdMs >= o.maxInterKeyMs, {
    message: 'holdMs must be at least maxInterKeyMs (else the first keys of a burst are released as typed)',
    path: ['holdMs'],
  });

/** Keys that never produce output and never count for timing. */
export const IGNORED_KEYS: ReadonlySet<string> = new Set([
  'Shift',
  'Control',
  'Alt',
  'AltGraph',
  'Meta',
  'OS',
  'Super',
  'Hyper',
  'Fn',
  'FnLock',
  'CapsLock',
  'NumLock',
  'ScrollLock',
  'Symbol',
  'SymbolLock',
  'Dead',
  'Compose',
  'Process',
  'Unidentified',
]);

export type KeyKind = 'printable' | 'terminator' | 'ignored' | 'other';

const CONTROL_CHAR = /^[\u0000-\u001f\u007f-\u009f]$/;

/** How the detector treats a key name (terminators are checked first, so '\r' may be one). */
export function classifyKey(key: string, terminators: readonly string[]): KeyKind {
  if (terminators.includes(key)) return 'terminator';
  if (IGNORED_KEYS.has(key)) return 'ignored';
  if ([...key].length === 1 && !CONTROL_CHAR.test(key)) return 'printable';
  return 'other';
}

type Held = { key: string; at: number };

export class WedgeDetector {
  readonly options: Readonly<WedgeOptions>;
  #held: Held[] = [];
  /** Time of the last printable key of the current run (held or being dropped). */
  #lastAt = Number.NEGATIVE_INFINITY;
  /** Inside a garbage burst (longer than maxLength): swallow keys until a gap. */
  #dropping = false;
  #errors = 0;

  /** Throws a ZodError when the options are invalid. */
  constructor(options: Partial<WedgeOptions> = {}) {
    this.options = wedgeOptionsSchema.parse({ ...DEFAULT_WEDGE_OPTIONS, ...options });
  }

  /** Bursts dropped as garbage (longer than maxLength) since construction. */
  get errors(): number {
    return this.#errors;
  }

  /** Number of keys currently held back. */
  get pending(): number {
    return this.#held.length;
  }

  /** The earliest `now` at which `tick(now)` releases the held keys; null when nothing is held. */
  nextTickAt(): number | null {
    return this.#held.length > 0 ? this.#lastAt + this.options.holdMs + 1 : null;
  }

  /** Feed one key press (KeyboardEvent.key name) with its timestamp; returns what it decides now. */
  key(key: string, at: number): WedgeOutput[] {
    checkTime(at);
    switch (classifyKey(key, this.options.terminators)) {
      case 'ignored':
        return [];
      case 'other':
        return [...this.#release(), { type: 'typed', key, at }];
      case 'terminator':
        return this.#terminator(key, at);
      case 'printable':
        return this.#printable(key, at);
    }
  }

  /** Call from a timer (see nextTickAt): releases held keys once `now - lastKey > holdMs`. */
  tick(now: number): WedgeOutput[] {
    checkTime(now);
    if (this.#dropping && now - this.#lastAt > this.options.maxInterKeyMs) this.#dropping = false;
    if (this.#held.length > 0 && now - this.#lastAt > this.options.holdMs) return this.#release();
    return [];
  }

  #within(at: number): boolean {
    return at - this.#lastAt <= this.options.maxInterKeyMs;
  }

  #release(): WedgeOutput[] {
    const out = this.#held.map((h): WedgeOutput => ({ type: 'typed', key: h.key, at: h.at }));
    this.#held = [];
    return out;
  }

  #printable(key: string, at: number): WedgeOutput[] {
    if (this.#dropping) {
      if (this.#within(at)) {
        this.#lastAt = at;
        return [];
      }
      this.#dropping = false;
    }
    const out = this.#held.length > 0 && !this.#within(at) ? this.#release() : [];
    this.#held.push({ key, at });
    this.#lastAt = at;
    if (this.#held.length > this.options.maxLength) {
      this.#held = [];
      this.#dropping = true;
      this.#errors += 1;
    }
    return out;
  }

  #terminator(key: string, at: number): WedgeOutput[] {
    if (this.#dropping) {
      this.#dropping = false;
      // The garbage burst's own terminator is swallowed with it; a late one is a person's Enter.
      return this.#within(at) ? [] : [{ type: 'typed', key, at }];
    }
    if (this.#held.length >= this.options.minLength && this.#within(at)) {
      const code = this.#held.map((h) => h.key).join('');
      this.#held = [];
      return [{ type: 'scan', code, at }];
    }
    return [...this.#release(), { type: 'typed', key, at }];
  }
}

function checkTime(at: number): void {
  if (!Number.isFinite(at)) throw new RangeError(`key timestamp must be a finite number, got ${at}`);
}
