/** What the presence keeper (presence-keeper.ts) is built from: build-presence.ts wires it, tests build it alike. */
import type { Clock, Sleep } from '../../domain/time/clock.js';
import type { Logger } from '../../log.js';
import type { PresenceTables } from '../../store/punches/presence-tables.js';
import type { PresenceStream } from '../../sync/fleet/presence-stream.js';
import type { ReadDay } from './presence-service-day.js';

export type PresenceOptions = {
  /** A punch this long after an entry is an entry again (a forgotten exit): selfService.maxShiftHours. */
  maxShiftMs: number;
  /** How often the stream is read and the queue published. */
  pollMs: number;
  /** While the stream is not live: how often the service's records of the people seen are read. */
  fallbackEveryMs: number;
  /** At most this many people per such round (those seen last first). */
  fallbackPeople: number;
  /** Without Redis configured: read a person's day at their first punch here today too (presence.readAtPunch). */
  readAtPunch?: boolean;
};

export type PresenceKeeperDeps = {
  tables: PresenceTables;
  /** The committed punch's row (outbox). */
  punchRow: (id: number) =>
    | {
        employee_key: string;
        employee_external_id: string | null;
        captured_at: number;
        local_date: string;
        local_time: string;
      }
    | undefined;
  /** Null: no Redis configured. */
  stream: PresenceStream | null;
  /** The stream's key (it follows the account: a new token is another window key); null without a site. */
  streamKey: () => string | null;
  terminal: string;
  gate: string;
  siteTimeZone: () => string;
  siteName: () => string;
  dataDir: string;
  /** The service's records of one person's day; null: not asked (no API). */
  readDay: ReadDay | null;
  clock: Clock;
  sleep: Sleep;
  log: Logger;
  /** The board changed: the live event stream tells the screens (a coalesced status event). */
  changed: () => void;
  opts: PresenceOptions;
};
