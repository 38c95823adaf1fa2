import type { Agent } from '../../src/agent/facade/agent.js';
import { buildAgent, realRuntime } from '../../src/agent/build-agent.js';
import { configSchema, type Config } from '../../src/config.js';
import type { TokenStore } from '../../src/agent/host/token-store.js';
import type { DriveRoots } from '../../src/agent/host/removable-drives.js';
import type { Clock, Sleep } from '../../src/domain/time/clock.js';
import type { SidecarCopy } from '../../src/domain/punch/nsr-reservation.js';
import type { NtpSync } from '../../src/domain/time/date-plausibility.js';
import type { HidBackend } from '../../src/input/hid-backend.js';
import { createLogger, silentLogger, type Logger } from '../../src/log.js';
import type { MockServer, StoredTimeRecord } from '../../src/mock/mock-server.js';

export type TestAgentOptions = {
  dataDir: string;
  mock: Pick<MockServer, 'url'> | { url: string };
  token?: string;
  rateLimit?: { limit: number; windowMs: number };
  timeoutMs?: number;
  retry?: Partial<{
    baseMs: number;
    maxMs: number;
    inDoubtGraceMs: number;
    authRetryMs: number;
    heldRetryMs: number;
    maxChecks: number;
  }>;
  siteId?: string;
  log?: Logger;
  /** Further settings, merged over the test defaults (e.g. identity, pin). */
  settings?: Record<string, unknown>;
  clock?: Clock;
  /**
   * Monotonic ms, stepped apart from `clock` to make a step of the wall clock (default: `clock` itself, so time passes
   * without steps).
   */
  mono?: () => number;
  /** The agent's waits (retries, pauses, the rate window): with a FakeTime, they end when the test moves time. */
  sleep?: Sleep;
  /** The boot this agent runs in (default: the machine's): anchors of another boot do not count. */
  bootId?: string;
  hid?: HidBackend;
  /** Where a token set on the admin screen goes (default: the 0600 file in dataDir). */
  tokens?: TokenStore;
  /** Built as the embedded demo is (its token fixed, its settings kept apart). */
  demo?: boolean;
  /** False: the limit does not adapt to 429s (the control of the fleet tests). */
  adaptiveRate?: boolean;
  /** Where the AFD export looks for removable drives (a fake /proc/mounts and /sys). */
  afdDrives?: DriveRoots;
  /** The host name the terminal says it runs on (the fleet's registry; default the machine's). */
  host?: string;
  /**
   * Whether this machine's clock is NTP-synchronised, as the agent is told (default 'unknown': never the test box's own
   * state).
   */
  ntp?: NtpSync;
  /** How often the clock watch looks (0: only by `agent.checkClock()`, for steps on injected time). */
  clockCheckEveryMs?: number;
  /** The NSR mark the fleet's Redis held at start, as openAgent reads it (agent/journal/fleet-nsr.ts). */
  fleetNsr?: SidecarCopy | null;
};

/** A real agent (real SQLite file, real HTTP) with test-sized timings. */
export function testAgent(o: TestAgentOptions): Agent {
  const config = configSchema.parse({
    dataDir: o.dataDir,
    api: { baseUrl: o.mock.url, token: o.token ?? 'demo-token', timeoutMs: o.timeoutMs ?? 1_000 },
    siteId: o.siteId,
    timezone: 'America/Sao_Paulo',
    rateLimit: o.rateLimit ?? { limit: 60, windowMs: 1_000 },
    retry: { baseMs: 20, maxMs: 200, authRetryMs: 1_000, ...o.retry },
    ...o.settings,
  }) as Config & { api: NonNullable<Config['api']> };
  const log = o.log ?? (process.env.TIMECLOCK_TEST_LOG ? createLogger({ level: 'debug' }) : silentLogger);
  const rt = realRuntime(log);
  return buildAgent(
    config,
    {
      ...rt,
      ntp: () => o.ntp ?? 'unknown',
      ...(o.host ? { host: o.host } : {}),
      ...(o.clock ? { clock: o.clock } : {}),
      ...(o.mono ? { mono: o.mono } : o.clock ? { mono: () => (o.clock as Clock).now() } : {}),
      ...(o.bootId ? { bootId: o.bootId } : {}),
      ...(o.sleep ? { sleep: o.sleep } : {}),
      ...(o.hid ? { hid: o.hid } : {}),
      ...(o.tokens ? { tokens: o.tokens } : {}),
    },
    {
      demo: o.demo ?? false,
      ...(o.adaptiveRate === undefined ? {} : { adaptiveRate: o.adaptiveRate }),
      ...(o.afdDrives ? { afdDrives: o.afdDrives } : {}),
      ...(o.clockCheckEveryMs === undefined ? {} : { clockCheckEveryMs: o.clockCheckEveryMs }),
      ...(o.fleetNsr === undefined ? {} : { fleetNsr: o.fleetNsr }),
    },
  );
}

/** Records per (employee, time): any count above one is a duplicate on the server. */
export function recordCounts(records: StoredTimeRecord[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of records) {
    const k = `${r.employee_external_id ?? r.employee_id}|${r.time}`;
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}
