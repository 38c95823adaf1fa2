// Configuration of a terminal as one of a fleet (issue 14): its name, its metrics endpoint, and a
// request budget shared with the other terminals of the account through Redis. config.ts holds
// these in its schema.
import os from 'node:os';
import { z } from 'zod';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** A name for this terminal in logs, status and metrics: letters, digits, dot, dash, underscore. */
export const terminalIdSchema = z
  .string()
  .min(1)
  .max(63)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be letters, digits, ".", "-" or "_" (it names the terminal in metrics)');

/**
 * The host name made to fit the pattern above: the terminal id of earlier versions, and the last resort (config.ts
 * terminalIdOf).
 */
export function defaultTerminalId(hostname: string = os.hostname()): string {
  const cleaned = hostname
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 63);
  return cleaned === '' ? 'terminal' : cleaned;
}

/** `host:port` to listen on (Prometheus metrics and /healthz); a loopback host unless set otherwise. */
export const listenSchema = z
  .string()
  .regex(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'must be host:port, e.g. 127.0.0.1:9464');

export const metricsSchema = z.object({ listen: listenSchema.optional() }).strict().default({});

export const rateLimitSchema = z
  .object({
    limit: int(1, 10_000).default(60),
    windowMs: int(100, 3_600_000).default(60_000),
    /**
     * redis:// or rediss:// URL of a Redis every terminal of the account reaches: the terminals then
     * draw from one sliding window there, at `accountLimit` per `windowMs` for the whole account;
     * without Redis (or while it is unreachable) this terminal keeps `limit` to itself, its share.
     * The evidence journal's NSR high-water mark is kept there too (docs/evidence-journal.md).
     */
    redisUrl: z
      .string()
      .url()
      .refine((u) => /^rediss?:\/\//.test(u), 'must be a redis:// or rediss:// URL')
      .optional(),
    /** The account's limit per `windowMs`, drawn from by every terminal when they share a window in Redis. */
    accountLimit: int(1, 10_000).default(60),
    /**
     * The key the shared window lives under; default: derived from the API URL and token, so one account shares one
     * window.
     */
    redisKey: z.string().min(1).max(200).optional(),
    /**
     * Share of the window that roster traffic leaves to punches (of the account's window too, with
     * Redis): a punch taken during a sync is then sent at once. 0 turns the reserve off.
     */
    punchReserve: z.number().min(0).max(0.5).default(0.1),
    /**
     * With Redis: how often this terminal renews its entry in the account's registry of live
     * terminals (which finds two terminals under one id); an entry expires after three of these.
     * Default 10 s (agent/delivery/shared-rate.ts).
     */
    announceEveryMs: int(100, 600_000).optional(),
  })
  .strict()
  .prefault({});

/** Environment variables of these keys (config.ts adds them to its own). */
export const fleetEnvKeys: Record<string, string> = {
  TIMECLOCK_TERMINAL_ID: 'terminalId',
  TIMECLOCK_METRICS_LISTEN: 'metrics.listen',
  TIMECLOCK_RATE_REDIS_URL: 'rateLimit.redisUrl',
};
