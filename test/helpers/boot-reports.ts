/** Boot-protocol keyboard reports written by hand, and what a decoder made of them: for the decoder's tests. */
import type { BootKeyboardDecoder, DecodeEvent } from '../../src/input/boot-keyboard-decoder.js';

export const codes = (events: readonly DecodeEvent[]): string[] =>
  events.flatMap((e) => (e.type === 'code' ? [e.code] : []));
export const errors = (events: readonly DecodeEvent[]): string[] =>
  events.flatMap((e) => (e.type === 'error' ? [e.reason] : []));

/** An 8-byte boot report. */
export const r8 = (modifier: number, ...keys: number[]): Uint8Array => {
  const b = new Uint8Array(8);
  b[0] = modifier;
  keys.forEach((k, i) => (b[2 + i] = k));
  return b;
};
export const UP = r8(0);

export function feed(decoder: BootKeyboardDecoder, reports: readonly Uint8Array[]): DecodeEvent[] {
  return reports.flatMap((r) => decoder.push(r));
}

/** Press and release each key of `usages` (no shift), then optionally Enter. */
export function typed(usages: readonly number[], enter = true): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const u of [...usages, ...(enter ? [0x28] : [])]) out.push(r8(0, u), UP);
  return out;
}
