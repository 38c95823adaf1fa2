/**
 * The subset of the HID keyboard usage table (HID Usage Tables, usage page 0x07 "Keyboard/Keypad")
 * that badge readers in keyboard mode send, with the characters a US layout gives for each key.
 *
 * Pure data and lookups: no I/O, imports nothing.
 */

export const KEYBOARD_USAGE_PAGE = 0x07;

/** Modifier byte of a boot-protocol report (byte 0), one bit per modifier key. */
export const MOD = {
  leftCtrl: 0x01,
  leftShift: 0x02,
  leftAlt: 0x04,
  leftGui: 0x08,
  rightCtrl: 0x10,
  rightShift: 0x20,
  rightAlt: 0x40,
  rightGui: 0x80,
} as const;
export const SHIFT_MASK = MOD.leftShift | MOD.rightShift;

/** Usages with a meaning other than a character. */
export const USAGE = {
  /** "Keyboard ErrorRollOver": in every slot when too many keys are down (phantom state). */
  errorRollOver: 0x01,
  postFail: 0x02,
  errorUndefined: 0x03,
  enter: 0x28,
  escape: 0x29,
  backspace: 0x2a,
  tab: 0x2b,
  space: 0x2c,
  keypadEnter: 0x58,
  /** 0xe0–0xe7 are the modifier keys themselves; boot reports carry them in the modifier byte. */
  firstModifier: 0xe0,
  lastModifier: 0xe7,
} as const;

/** What one key press means. */
export type KeyAction = { kind: 'char'; char: string } | { kind: 'enter' | 'tab' | 'escape' | 'backspace' };

/** usage → [character without shift, character with shift] (US layout). */
const printable = new Map<number, readonly [string, string]>();

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
for (let i = 0; i < LOWER.length; i++) {
  const c = LOWER.charAt(i);
  printable.set(0x04 + i, [c, c.toUpperCase()]); // a–z: 0x04–0x1d
}
const DIGITS = '1234567890';
const SHIFTED_DIGITS = '!@#$%^&*()';
for (let i = 0; i < DIGITS.length; i++) {
  printable.set(0x1e + i, [DIGITS.charAt(i), SHIFTED_DIGITS.charAt(i)]); // 1–9, 0: 0x1e–0x27
}
printable.set(USAGE.space, [' ', ' ']);
printable.set(0x2d, ['-', '_']);
printable.set(0x2e, ['=', '+']);
printable.set(0x33, [';', ':']);
printable.set(0x37, ['.', '>']);
printable.set(0x38, ['/', '?']);
// Keypad 1–9, 0: 0x59–0x62. The keypad gives digits whatever the shift state (NumLock on).
for (let i = 0; i < DIGITS.length; i++) {
  const d = DIGITS.charAt(i);
  printable.set(0x59 + i, [d, d]);
}

/** The keypad usages, which `usageFor` never returns (it picks the main row). */
const isKeypad = (usage: number): boolean => usage >= 0x59 && usage <= 0x62;

const reverse = new Map<string, { usage: number; shift: boolean }>();
for (const [usage, [plain, shifted]] of printable) {
  if (isKeypad(usage)) continue;
  if (!reverse.has(plain)) reverse.set(plain, { usage, shift: false });
  if (!reverse.has(shifted)) reverse.set(shifted, { usage, shift: true });
}

/** The printable character a key gives, or null (not in the table, or not a character). */
export function charFor(usage: number, shift: boolean): string | null {
  const pair = printable.get(usage);
  if (pair === undefined) return null;
  return shift ? pair[1] : pair[0];
}

/** What a key press means, or null for a usage outside this table. */
export function keyFor(usage: number, shift: boolean): KeyAction | null {
  switch (usage) {
    case USAGE.enter:
    case USAGE.keypadEnter:
      return { kind: 'enter' };
    case USAGE.tab:
      return { kind: 'tab' };
    case USAGE.escape:
      return { kind: 'escape' };
    case USAGE.backspace:
      return { kind: 'backspace' };
    default: {
      const char = charFor(usage, shift);
      return char === null ? null : { kind: 'char', char };
    }
  }
}

/** The key (main row, never the keypad) and shift state that type `char`; null if no key does. */
export function usageFor(char: string): { usage: number; shift: boolean } | null {
  const hit = reverse.get(char);
  return hit === undefined ? null : { ...hit };
}

export const isModifierUsage = (usage: number): boolean => usage >= USAGE.firstModifier && usage <= USAGE.lastModifier;

/**
 * Every character the decoder can produce (and `usageFor` can encode), sorted: a–z, A–Z, 0–9,
 * the shifted digits `!@#$%^&*()`, space, `- _ = + ; : . > / ?`. Which of them a badge code may
 * contain is decided later, by `checkCode` (src/domain/people/credential.ts).
 */
export const SUPPORTED_CHARACTERS: readonly string[] = Object.freeze([...reverse.keys()].sort());

const hex2 = (n: number): string => n.toString(16).padStart(2, '0');
export const usageName = (usage: number): string => `0x${hex2(usage)}`;
