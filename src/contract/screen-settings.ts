/** How the screen behaves on this terminal, from the config. */
import { z } from 'zod';
import { count } from './common.js';

/** How the screen behaves on this terminal (from the config): read once when the page loads. */
export const screenSettingsSchema = z.object({
  language: z.enum(['pt-BR', 'en']),
  /** The keyboard-wedge detector's options (src/input/wedge-detector.ts), so the page tells bursts from typing as the headless terminal does. */
  wedge: z.object({
    maxInterKeyMs: z.number().nonnegative(),
    minLength: count,
    maxLength: count,
    terminators: z.array(z.string()),
    holdMs: z.number().nonnegative(),
  }),
  /** Input kinds that need the employee's PIN after the credential. */
  pinRequiredFor: z.array(z.enum(['badge', 'id'])),
  /** False: no admin login on this terminal (the screen hides the way in). */
  adminEnabled: z.boolean(),
  /** How long a result stays on screen before the idle screen returns. */
  resultMs: z.number().int().positive(),
  /** A result with a receipt stays at least this long: a phone takes seconds to read its QR code. */
  receiptMs: z.number().int().positive().optional(),
});
export type ScreenSettings = z.infer<typeof screenSettingsSchema>;
