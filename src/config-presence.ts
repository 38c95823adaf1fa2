// Who is on site and the roll call (issue 30): this terminal's gate and the stream's bounds.
// config-schema.ts holds this in its schema; the Redis settings are rateLimit's (config-fleet.ts).
import { z } from 'zod';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const presenceSchema = z
  .object({
    /** The gate this terminal stands at, as the board groups entries (default: the terminal id). */
    gate: z.string().min(1).max(60).optional(),
    /** About how many entries the site's stream in Redis keeps (XADD MAXLEN ~): a day of punches and roll calls. */
    streamMaxLen: int(10, 1_000_000).default(50_000),
    /** How often the stream is read and this terminal's entries published. */
    pollMs: int(50, 60_000).default(500),
    /**
     * While the stream is not live: how often the service's records of the people seen today are read (lowest
     * priority).
     */
    fallbackEveryMs: int(1_000, 3_600_000).default(120_000),
    /** At most this many people per such round. */
    fallbackPeople: int(0, 10_000).default(200),
    /**
     * Without Redis configured, also read a person's day at their first punch here today (lowest priority), so an
     * exit at a gate whose terminal never saw the entry is labelled right at once, not at the next round: for a site
     * of several terminals without Redis. Off by default: a lone terminal would spend a request a person a day for
     * nothing. With Redis configured and out of reach, the read is always made.
     */
    readAtPunch: z.boolean().default(false),
  })
  .strict()
  .prefault({});
