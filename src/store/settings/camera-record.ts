/**
 * Issue 31: the screen's camera as the agent last heard of it, kept where `timeclock status` and
 * doctor in another process read it. Written only when photo.mode is on-punch.
 */
import { z } from 'zod';
import { CAMERA_PROBLEMS } from '../../domain/punch/photo.js';
import { recordKey } from './setting-keys.js';

export const cameraRecordSchema = z.looseObject({
  ok: z.boolean(),
  problem: z.enum(CAMERA_PROBLEMS).nullable(),
  since: z.number(),
  /** Punches registered "sem foto" since the camera went out. */
  missedPunches: z.number().int().nonnegative(),
});
export type CameraRecord = z.infer<typeof cameraRecordSchema>;

export const cameraKey = recordKey('photo.camera', cameraRecordSchema);
