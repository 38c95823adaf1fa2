/** How the screen behaves on this terminal, from the config. */
import { z } from 'zod';
import { count } from './common.js';
import { screenPhotoSchema } from './photo.js';

/** How the screen behaves on this terminal (from the config): read once when the page loads. */
export const screenSettingsSchema = z.object({
  /** The site's language: the screen comes back to it after the idle timeout. */
  language: z.enum(['pt-BR', 'es', 'en']),
  /** light for daylight sites; absent: dark. */
  theme: z.enum(['dark', 'light']).optional(),
  /** Say the result aloud (first name and "entry registered"); absent: off. */
  speech: z.boolean().optional(),
  /** The PIN step names whose PIN it asks for; absent: on. */
  pinShowName: z.boolean().optional(),
  /**
   * What a typed ID may be (config identity.allowed.id): the keypad's title says it ("matrícula ou CPF"); absent: the
   * config's default, all three.
   */
  idKinds: z.array(z.enum(['badge', 'external_id', 'registration_number', 'cpf'])).optional(),
  /**
   * The keyboard-wedge detector's options (src/input/wedge-detector.ts), so the page tells bursts from typing as the
   * headless terminal does.
   */
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
  /** Issue 31: photo.mode on-punch: the frame's size, its largest JPEG and the days photos are kept; absent: off. */
  photo: screenPhotoSchema.optional(),
});
export type ScreenSettings = z.infer<typeof screenSettingsSchema>;
