/** This terminal among the account's others, as the status reports it (the `fleet` field). */
import { z } from 'zod';
import { epochMs } from './common.js';

export const fleetStatusSchema = z.object({
  host: z.string(),
  instanceId: z.string().nullable(),
  conflict: z
    .object({
      since: epochMs,
      others: z.array(
        z.object({
          id: z.string(),
          instance: z.string(),
          host: z.string(),
          pid: z.number().int(),
          startedAt: epochMs,
        }),
      ),
    })
    .nullable(),
  /**
   * The account's window in Redis: its key, and the normalised service address (never credentials) or
   * rateLimit.redisKey it comes from.
   */
  windowKey: z.object({ key: z.string(), from: z.string() }).nullable().optional(),
});
