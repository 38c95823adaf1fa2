/**
 * The one-time code a browser started by the terminal (`timeclock start --browser`) opens the screen
 * with (`/?c=<code>`), so the page token never stands on the browser's command line (the process
 * list): the page trades the code for the token once, at its first load, and keeps the token in
 * page memory. A code is good once, for a short time.
 */
import { z } from 'zod';

export const SCREEN_CODE_PATH = '/api/screen-code';
export const screenCodeSchema = z.string().regex(/^[0-9a-f]{32}$/);
export const screenCodeRequestSchema = z.strictObject({ code: screenCodeSchema });
export const screenCodeAnswerSchema = z.object({ ok: z.literal(true), token: z.string().regex(/^[0-9a-f]{64}$/) });
