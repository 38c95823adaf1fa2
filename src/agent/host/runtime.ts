/** The outside world the agent runs in (clock, sleep, randomness, log, HID, token store) and how a build is tuned. */
import type { Clock, Monotonic, Random, Sleep } from '../../domain/time/clock.js';
import type { HidBackend } from '../../input/hid-backend.js';
import type { Logger } from '../../log.js';
import type { IntegrityChecker } from '../../store/upkeep/integrity-check.js';
import type { NtpProbe } from './ntp-sync.js';
import type { DriveRoots } from './removable-drives.js';
import type { TokenStore } from './token-store.js';
import type { ProxyEnv } from '../../api/proxy.js';
import type { SidecarCopy } from '../../domain/punch/nsr-reservation.js';

/**
 * The outside world the agent runs in; `hid` defaults to node-hid (tests pass a fake). `tokens`:
 * where a token set on the admin screen is kept; default a 0600 file in the data directory (the
 * headless terminal's store; the Electron shell passes its safeStorage one).
 */
/**
 * `mono`: monotonic ms (default performance.now); tests step it and `clock` independently. `ntp`:
 * whether this machine's clock is NTP-synchronised (default: ask the system, agent/host/ntp-sync.ts).
 * `host`: the host name shown with the terminal id and announced to the fleet (default os.hostname(); tests pass
 * another).
 */
export type Runtime = {
  clock: Clock;
  mono?: Monotonic;
  bootId?: string;
  sleep: Sleep;
  random: Random;
  log: Logger;
  hid?: HidBackend;
  tokens?: TokenStore;
  /** HTTPS_PROXY, HTTP_PROXY, NO_PROXY as loaded with the configuration (default: this process's environment). */
  proxyEnv?: ProxyEnv;
  host?: string;
  ntp?: NtpProbe;
};

/**
 * `demo`: the embedded demo API; its token is fixed and nothing set on its admin screen reaches a real configuration.
 * `adaptiveRate` false: the limit never adapts to 429s (only the fleet tests' control turns it off).
 * `integrity`: when the background integrity check runs, and with what (tests).
 */
export type BuildOptions = {
  demo?: boolean;
  adaptiveRate?: boolean;
  integrity?: { firstAfterMs?: number; everyMs?: number; check?: IntegrityChecker };
  /** When retention passes run (tests). */
  retention?: { firstAfterMs?: number; everyMs?: number };
  /** When the evidence journal is first verified (tests; then config `journal.verifyEveryMs`). */
  journal?: { firstAfterMs?: number };
  /** Where the AFD export looks for removable drives (tests: a fake /proc/mounts and /sys). */
  afdDrives?: DriveRoots;
  /**
   * How often the wall clock is compared with the monotonic one (default every second; 0: only by `checkClock()`, tests
   * on injected time).
   */
  clockCheckEveryMs?: number;
  /** The NSR mark the fleet's Redis held at start (agent/journal/fleet-nsr.ts readFleetNsr), read before the build. */
  fleetNsr?: SidecarCopy | null;
};

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, Math.min(ms, 2_147_483_647));
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export function realRuntime(log: Logger): Runtime {
  return { clock: { now: () => Date.now() }, sleep: realSleep, random: Math.random, log };
}

/** The zone last read, and the TZ it was read under. */
let systemZone: { tz: string | undefined; zone: string } | null = null;

/**
 * The machine's zone. Node settles it at start and again only when `process.env.TZ` is assigned, so it is read once
 * per TZ value: reading it builds a formatter (130-160 µs), and presence asked at every round, after every punch.
 */
export function systemTimeZone(): string {
  const tz = process.env.TZ;
  if (systemZone === null || systemZone.tz !== tz)
    systemZone = { tz, zone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC' };
  return systemZone.zone;
}
