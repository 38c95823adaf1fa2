/**
 * Configurable transforms on a decoded code, applied in this fixed order:
 *
 * 1. `stripPrefix`: removed when the code starts with it (a code without it passes unchanged).
 * 2. `stripSuffix`: removed when the code ends with it (likewise).
 * 3. `digitsOnly`: every character that is not 0–9 is removed; nothing left → refused.
 * 4. `hexToDecimal`: the code must be hexadecimal (0–9, a–f, A–F, no "0x"); it becomes the same
 *    number in decimal (BigInt, so any length is exact). Anything else → refused.
 * 5. `wiegand26`: the code is the raw 26-bit Wiegand frame as a decimal number (after step 4 when
 *    the reader gives it in hex). Bit 25 is even parity over bits 24–13, bit 0 odd parity over bits
 *    12–1; bits 24–17 are the facility code (8 bits), bits 16–1 the card number (16 bits). Output
 *    `FFF-CCCCC` (facility as 3 digits, card as 5). A wrong parity bit, or a number of more than 26
 *    bits → refused.
 * 6. `minLength` / `maxLength` on the result (in characters).
 *
 * An empty result is always refused. Pure: no I/O.
 */
import { z } from 'zod';
import { MAX_CODE_LENGTH } from '../domain/people/credential.js';

export type CodeTransforms = {
  minLength?: number;
  maxLength?: number;
  stripPrefix?: string;
  stripSuffix?: string;
  digitsOnly?: boolean;
  hexToDecimal?: boolean;
  wiegand26?: boolean;
};

export type TransformResult = { ok: true; code: string } | { ok: false; reason: string };

/** For the configuration (e.g. a reader's `transforms` key). Unknown keys are refused. */
export const codeTransformsSchema = z
  .object({
    minLength: z.number().int().min(1).max(MAX_CODE_LENGTH).optional(),
    maxLength: z.number().int().min(1).max(MAX_CODE_LENGTH).optional(),
    stripPrefix: z.string().min(1).max(MAX_CODE_LENGTH).optional(),
    stripSuffix: z.string().min(1).max(MAX_CODE_LENGTH).optional(),
    digitsOnly: z.boolean().optional(),
    hexToDecimal: z.boolean().optional(),
    wiegand26: z.boolean().optional(),
  })
  .strict()
  .refine((t) => t.minLength === undefined || t.maxLength === undefined || t.minLength <= t.maxLength, {
    message: 'minLength must not be greater than maxLength',
    path: ['minLength'],
  });

// The schema and the type must describe the same thing.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: Same<z.infer<typeof codeTransformsSchema>, CodeTransforms> = true;
void schemaMatchesType;

const refuse = (reason: string): TransformResult => ({ ok: false, reason });

export function applyTransforms(code: string, t: CodeTransforms): TransformResult {
  let c = code;
  if (t.stripPrefix && c.startsWith(t.stripPrefix)) c = c.slice(t.stripPrefix.length);
  if (t.stripSuffix && c.endsWith(t.stripSuffix)) c = c.slice(0, c.length - t.stripSuffix.length);
  if (t.digitsOnly) {
    c = c.replace(/[^0-9]/g, '');
    if (c.length === 0) return refuse('no digits in the code');
  }
  if (t.hexToDecimal) {
    if (!/^[0-9a-fA-F]+$/.test(c)) return refuse('not hexadecimal');
    c = BigInt(`0x${c}`).toString(10);
  }
  if (t.wiegand26) {
    const w = splitWiegand26(c);
    if (!w.ok) return w;
    c = w.code;
  }
  if (c.length === 0) return refuse('empty code');
  if (t.minLength !== undefined && c.length < t.minLength)
    return refuse(`too short (${c.length} characters, at least ${t.minLength})`);
  if (t.maxLength !== undefined && c.length > t.maxLength)
    return refuse(`too long (${c.length} characters, at most ${t.maxLength})`);
  return { ok: true, code: c };
}

const popcount = (n: number): number => {
  let count = 0;
  for (let v = n; v !== 0; v >>>= 1) count += v & 1;
  return count;
};

/** Step 5 on its own: a 26-bit Wiegand frame (decimal) → `FFF-CCCCC`, parity checked. */
export function splitWiegand26(decimal: string): TransformResult {
  if (!/^[0-9]+$/.test(decimal)) return refuse('Wiegand 26 needs the frame as a decimal number');
  const big = BigInt(decimal);
  if (big >= 1n << 26n) return refuse('Wiegand 26 frame has more than 26 bits');
  const frame = Number(big);
  const evenParity = (frame >>> 25) & 1;
  const oddParity = frame & 1;
  const high = (frame >>> 13) & 0xfff; // bits 24–13
  const low = (frame >>> 1) & 0xfff; // bits 12–1
  if ((popcount(high) + evenParity) % 2 !== 0) return refuse('Wiegand 26 even parity bit is wrong');
  if ((popcount(low) + oddParity) % 2 !== 1) return refuse('Wiegand 26 odd parity bit is wrong');
  const facility = (frame >>> 17) & 0xff;
  const card = (frame >>> 1) & 0xffff;
  return { ok: true, code: `${String(facility).padStart(3, '0')}-${String(card).padStart(5, '0')}` };
}
