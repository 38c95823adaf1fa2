/** The PIN store on a real SQLite file in a temp dir, on a clock the test moves: for the tests of the store. */
import { afterEach } from 'vitest';
import type { Clock } from '../../src/domain/time/clock.js';
import type { PinPolicy, ThrottlePolicy } from '../../src/domain/people/pin-policy.js';
import { AuditLog, type AuditEntry } from '../../src/store/roster/audit-log.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { Pins, type ScryptParams } from '../../src/store/roster/pins.js';
import { tempDir } from './temp.js';

export const T0 = 1_795_000_000_000;
export const POLICY: PinPolicy = { maxFailures: 5, lockoutMs: 15 * 60_000 };
/** Cheap parameters so most tests do not spend 50 ms per hash; one test uses the defaults. */
const FAST: ScryptParams = { N: 1024, r: 8, p: 1, keylen: 32 };
/** A throttle that never bites, for tests about the per-employee rules only. */
const NO_THROTTLE: ThrottlePolicy = { windowMs: 60_000, freeFailures: 1_000_000, stepMs: 0, maxWaitMs: 0 };

export const PIN = '739146';
/** Wrong PINs distinctive enough to search for in the audit log. */
export const WRONG = ['582013', '4417', '90817364', '36150'];

export class FakeClock implements Clock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

export type Setup = { dir: string; db: Db; clock: FakeClock; audit: AuditLog; pins: Pins };

type Opts = { throttle?: ThrottlePolicy; scryptParams?: ScryptParams; attemptDelay?: (failures: number) => number };

/**
 * For a test file of the PIN store: `setup` opens a store in a fresh temp dir at T0, `open` one on
 * an existing dir (a restart); both closed and removed after each test. Call at the top of the file.
 */
export function pinStores(): { setup(opts?: Opts): Setup; open(dir: string, clock: FakeClock, opts?: Opts): Setup } {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    while (cleanups.length) cleanups.pop()?.();
  });

  /** Counting and locking are tested without the growing delay between attempts (it has a test of its own). */
  function open(dir: string, clock: FakeClock, opts: Opts = {}): Setup {
    const db = openDatabase(dir);
    cleanups.push(() => {
      if (db.open) db.close();
    });
    const audit = new AuditLog(db);
    const pins = new Pins({
      db,
      clock,
      policy: POLICY,
      audit,
      scryptParams: opts.scryptParams ?? FAST,
      throttle: opts.throttle ?? NO_THROTTLE,
      attemptDelay: opts.attemptDelay ?? (() => 0),
    });
    return { dir, db, clock, audit, pins };
  }

  function setup(opts: Opts = {}): Setup {
    const t = tempDir('timeclock-pins-');
    cleanups.push(t.cleanup); // runs after the close registered by open() (LIFO)
    return open(t.dir, new FakeClock(T0), opts);
  }

  return { setup, open };
}

const attemptEvents = new Set([
  'pin_ok',
  'pin_wrong',
  'pin_locked',
  'pin_refused_locked',
  'pin_throttled',
  'pin_no_pin',
]);
/** The audit entries of PIN attempts (not of setting or clearing a PIN), newest first. */
export const attemptEntries = (audit: AuditLog): AuditEntry[] =>
  audit.recent(10_000).filter((e) => attemptEvents.has(e.event));
