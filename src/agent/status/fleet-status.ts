/**
 * This terminal as one of a fleet, for status (issue 24): its host, its instance in the shared
 * window, another live terminal under its id, and where its request slots come from. The running
 * agent keeps the last of these in settings, so `timeclock status` in another process shows them.
 */
import { z } from 'zod';
import { recordKey } from '../../store/settings/setting-keys.js';
import { readSetting } from '../../store/settings/settings.js';
import type { Db } from '../../store/database.js';
import { redisFaults } from '../../sync/window/redis-fault.js';
import type { RateSharing } from '../../sync/window/shared-window-link.js';
import type { IdConflict } from '../../sync/fleet/terminal-registry.js';

export type FleetStatus = {
  /** The host name this terminal runs on (shown with its id). */
  host: string;
  /** This process's id in the shared window and the registry; null without Redis. */
  instanceId: string | null;
  /** Other live terminals under this terminal's id (a cloned data directory, a copied config). */
  conflict: IdConflict | null;
  /** The account's window in Redis: its key and what it was made from (never credentials); null without Redis. */
  windowKey?: { key: string; from: string } | null;
};

type FleetRecord = { at: number; rate: RateSharing; fleet: FleetStatus };

const num = z.number();
const entry = z.looseObject({ id: z.string(), instance: z.string(), host: z.string(), pid: num, startedAt: num });
const fleetRecord = recordKey<FleetRecord>(
  'fleet_state',
  z.looseObject({
    at: num,
    rate: z.looseObject({
      shared: z.enum(['redis', 'joining', 'fallback-local', 'local']),
      redisError: z.looseObject({ at: num, message: z.string() }).nullable(),
      reason: z
        .enum(redisFaults as [string, ...string[]])
        .nullable()
        .optional(),
      since: num.nullable().optional(),
    }),
    fleet: z.looseObject({
      host: z.string(),
      instanceId: z.string().nullable(),
      conflict: z.looseObject({ since: num, others: z.array(entry) }).nullable(),
      windowKey: z.looseObject({ key: z.string(), from: z.string() }).nullable().optional(),
    }),
  }) as z.ZodType<FleetRecord>,
);

export { fleetRecord };

/**
 * What the running agent last recorded, when an agent runs on this data directory (else nothing: no window is in use).
 */
export function storedFleet(db: Db, running: boolean): Omit<FleetRecord, 'at'> | null {
  if (!running) return null;
  const rec = readSetting(db, fleetRecord);
  return rec && { rate: rec.rate, fleet: rec.fleet };
}
