/** Issue 31: a punch's photo between the screen and the agent, and the camera's state. */
import { z } from 'zod';
import { epochMs } from './common.js';

/**
 * The most base64 characters a photo may take: 45,000 bytes (src/domain/punch/photo.ts), inside
 * the web bridge's 64 KiB body.
 */
export const PHOTO_BASE64_MAX = 60_000;

/** Why the screen has no frame: no camera, permission refused, in use elsewhere, failing, or no camera API at all. */
export const cameraProblemSchema = z.enum(['missing', 'denied', 'busy', 'failed', 'unsupported']);
export type CameraProblemView = z.infer<typeof cameraProblemSchema>;

const nsr = z.number().int().min(1).max(999_999_999);
const base64 = z
  .string()
  .min(8)
  .max(PHOTO_BASE64_MAX)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/);

/** The photo of punch `nsr` taken at its scan, or why there is none ("sem foto"). Sent after the punch's answer. */
export const punchPhotoInput = z.union([
  z.strictObject({ nsr, jpeg: base64 }),
  z.strictObject({ nsr, missing: cameraProblemSchema }),
]);

/**
 * stored: kept and sealed; no_photo_mode: photos are off here; not_recent: not a punch this terminal answered in the
 * last two minutes; already: that punch has its photo (or its "sem foto"); not_jpeg / too_big: refused, nothing kept.
 */
export const punchPhotoResult = z.object({
  ok: z.boolean(),
  code: z.enum(['stored', 'no_photo_mode', 'not_recent', 'already', 'not_jpeg', 'too_big', 'failed']),
});

export const cameraStateInput = z
  .strictObject({ ok: z.literal(true) })
  .or(z.strictObject({ ok: z.literal(false), problem: cameraProblemSchema }));

/** The admin screen's view of a punch's photo: the JPEG (base64), or what the journal says instead. */
export const punchPhotoViewSchema = z.object({
  state: z.enum(['photo', 'missing', 'removed', 'none']),
  jpeg: z.string().max(PHOTO_BASE64_MAX).nullable(),
});
export type PunchPhotoView = z.infer<typeof punchPhotoViewSchema>;

/** Status: the camera with photo.mode on-punch (null or absent: photos off). `ok` false: punches go "sem foto". */
export const cameraStatusSchema = z.object({
  ok: z.boolean(),
  problem: cameraProblemSchema.nullable(),
  since: epochMs,
  missedPunches: z.number().int().nonnegative(),
});
export type CameraStatusView = z.infer<typeof cameraStatusSchema>;

/** Screen settings: photo.mode on-punch with the frame's size and how long photos are kept (absent: off). */
export const screenPhotoSchema = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  maxBytes: z.number().int().positive(),
  keepDays: z.number().int().positive(),
});
