import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/domain/clock.js';
import { attemptDelayMs, DEFAULT_THROTTLE, type PinPolicy, type ThrottlePolicy } from '../../src/domain/pin-policy.js';
import { AuditLog, type AuditEntry } from '../../src/store/audit-log.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { DEFAULT_SCRYPT_PARAMS, Pins, type PinCheck, type ScryptParams } from '../../src/store/pins.js';
import { tempDir } from '../helpers/temp.js';

const T0 = 1_795_000_000_000;
const POLICY: PinPolicy = { maxFailures: 5, lockoutMs: 15 * 60_000 };
/** Cheap parameters so most tests do not spend 50 ms per hash; one test uses the defaults. */
const FAST: ScryptParams = { N: 1024, r: 8, p: 1, keylen: 32 };
/** A throttle that never bites, for tests about the per-employee rules only. */
const NO_THROTTLE: ThrottlePolicy = { windowMs: 60_000, freeFailures: 1_000_000, stepMs: 0, maxWaitMs: 0 };

const PIN = '739146';
/** Wrong PINs distinctive enough to search for in the audit log. */
const WRONG = ['582013', '4417', '90817364', '36150'];

class FakeClock implements Clock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});

type Setup = { dir: string; db: Db; clock: FakeClock; audit: AuditLog; pins: Pins };

type Opts = { throttle?: ThrottlePolicy; scryptParams?: ScryptParams; attemptDelay?: (failures: number) => number };

/** Counting and locking are tested without the growing delay between attempts (it has a test of its own). */
function open(dir: string, clock: FakeClock, opts: Opts = {}): Setup {
  const db = openDatabase(dir);
  cleanups.push(() => {
    if (db.open) db.close();
  });
  const audit = new AuditLog(db);
  const pins = new Pins(db, clock, POLICY, audit, { scryptParams: opts.scryptParams ?? FAST, throttle: opts.throttle ?? NO_THROTTLE, attemptDelay: opts.attemptDelay ?? (() => 0) });
  return { dir, db, clock, audit, pins };
}

function setup(opts: Opts = {}): Setup {
  const t = tempDir('timeclock-pins-');
  cleanups.push(t.cleanup); // runs after the close registered by open() (LIFO)
  return open(t.dir, new FakeClock(T0), opts);
}

/** Every occurrence of `needle` in the data directory's files, as ASCII and as UTF-16LE. */
function findInFiles(dir: string, needle: string): string[] {
  const hits: string[] = [];
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (!fs.statSync(file).isFile()) continue;
    const bytes = fs.readFileSync(file);
    if (bytes.includes(Buffer.from(needle, 'latin1'))) hits.push(`${name} (ascii)`);
    if (bytes.includes(Buffer.from(needle, 'utf16le'))) hits.push(`${name} (utf-16le)`);
  }
  return hits;
}

type PinRow = { employee_id: string; salt: Buffer; hash: Buffer; params: string; set_at: number };
const pinRows = (db: Db): PinRow[] => db.prepare('SELECT * FROM employee_pins ORDER BY employee_id').all() as PinRow[];

const attemptEvents = new Set(['pin_ok', 'pin_wrong', 'pin_locked', 'pin_refused_locked', 'pin_throttled', 'pin_no_pin']);
const attemptEntries = (audit: AuditLog): AuditEntry[] => audit.recent(10_000).filter((e) => attemptEvents.has(e.event));

describe('PIN store', () => {
  it('keeps no PIN in clear anywhere in the data directory (default scrypt parameters)', async () => {
    const s = setup({ scryptParams: DEFAULT_SCRYPT_PARAMS });
    await s.pins.set('emp-a', PIN);
    await s.pins.set('emp-b', PIN);
    expect(await s.pins.verify('emp-a', PIN)).toEqual({ ok: true });
    expect(await s.pins.verify('emp-b', PIN)).toEqual({ ok: true });
    expect(await s.pins.verify('emp-a', WRONG[0] as string)).toEqual({ ok: false, reason: 'wrong', remaining: 4 });

    // While open: the main file, the -wal and the -shm.
    const files = fs.readdirSync(s.dir);
    expect(files.some((f) => f.endsWith('-wal'))).toBe(true);
    expect(findInFiles(s.dir, PIN)).toEqual([]);
    expect(findInFiles(s.dir, WRONG[0] as string)).toEqual([]);

    // Same salt or hash for the same PIN would tell that two employees share it.
    const [a, b] = pinRows(s.db);
    expect(a?.employee_id).toBe('emp-a');
    expect(b?.employee_id).toBe('emp-b');
    expect(a?.salt).toHaveLength(16);
    expect(a?.hash).toHaveLength(32);
    expect(Buffer.compare(a?.salt as Buffer, b?.salt as Buffer)).not.toBe(0);
    expect(Buffer.compare(a?.hash as Buffer, b?.hash as Buffer)).not.toBe(0);
    expect(JSON.parse(a?.params as string)).toEqual({ alg: 'scrypt', N: 16_384, r: 8, p: 1, keylen: 32 });
    expect(a?.set_at).toBe(T0);

    // After close (checkpointed into the main file).
    s.db.close();
    expect(findInFiles(s.dir, PIN)).toEqual([]);
  });

  it('a new set of the same PIN draws a new salt; the old PIN stops working after a change', async () => {
    const s = setup();
    await s.pins.set('emp-a', PIN);
    const first = pinRows(s.db)[0] as PinRow;
    await s.pins.set('emp-a', PIN);
    const second = pinRows(s.db)[0] as PinRow;
    expect(first.salt.equals(second.salt)).toBe(false);
    expect(first.hash.equals(second.hash)).toBe(false);
    await s.pins.set('emp-a', '2580');
    expect(await s.pins.verify('emp-a', PIN)).toMatchObject({ ok: false, reason: 'wrong' });
    expect(await s.pins.verify('emp-a', '2580')).toEqual({ ok: true });
  });

  it('set refuses a malformed PIN with a clear message that does not repeat it', async () => {
    const s = setup();
    await expect(s.pins.set('emp-a', '12')).rejects.toThrow(/cannot set the PIN of employee emp-a: a PIN has at least 4 digits/);
    await expect(s.pins.set('emp-a', '12x45')).rejects.toThrow(/only the digits 0-9/);
    await expect(s.pins.set('emp-a', '123456789')).rejects.toThrow(/at most 8 digits/);
    await expect(s.pins.set('', '1234')).rejects.toThrow(/employee id is empty/);
    const err = await s.pins.set('emp-a', '99x77').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).not.toContain('99x77');
    expect(s.pins.has('emp-a')).toBe(false);
    expect(pinRows(s.db)).toEqual([]);
  });

  it('right PIN passes; 4 wrong leave one; the 5th locks for lockoutMs, even against the right PIN; then a fresh count', async () => {
    const s = setup();
    await s.pins.set('emp-a', PIN);
    expect(await s.pins.verify('emp-a', PIN)).toEqual({ ok: true });

    for (let i = 1; i <= 4; i++) {
      s.clock.advance(1_000);
      expect(await s.pins.verify('emp-a', WRONG[0] as string)).toEqual({ ok: false, reason: 'wrong', remaining: 5 - i });
    }
    s.clock.advance(1_000);
    const lockedAt = s.clock.now();
    expect(await s.pins.verify('emp-a', WRONG[1] as string)).toEqual({ ok: false, reason: 'locked', until: lockedAt + POLICY.lockoutMs });
    expect(s.pins.attempts('emp-a')).toEqual({ failures: 5, lockedUntil: lockedAt + POLICY.lockoutMs });

    // Locked: even the right PIN is refused, and refusals neither count nor extend the lock.
    expect(await s.pins.verify('emp-a', PIN)).toEqual({ ok: false, reason: 'locked', until: lockedAt + POLICY.lockoutMs });
    s.clock.advance(POLICY.lockoutMs - 1);
    expect(await s.pins.verify('emp-a', WRONG[2] as string)).toEqual({ ok: false, reason: 'locked', until: lockedAt + POLICY.lockoutMs });
    expect(await s.pins.verify('emp-a', PIN)).toEqual({ ok: false, reason: 'locked', until: lockedAt + POLICY.lockoutMs });
    expect(s.pins.attempts('emp-a')).toEqual({ failures: 5, lockedUntil: lockedAt + POLICY.lockoutMs });

    // The lock runs out: the right PIN works.
    s.clock.advance(1);
    expect(await s.pins.verify('emp-a', PIN)).toEqual({ ok: true });
    expect(s.pins.attempts('emp-a')).toEqual({ failures: 0, lockedUntil: null });
    // ...and the count is fresh: four more wrong ones do not lock.
    for (let i = 1; i <= 4; i++) {
      expect(await s.pins.verify('emp-a', WRONG[0] as string)).toEqual({ ok: false, reason: 'wrong', remaining: 5 - i });
    }
    expect(await s.pins.verify('emp-a', PIN)).toEqual({ ok: true });
  });

  it('after an expired lock, a wrong PIN starts the count afresh', async () => {
    const s = setup();
    await s.pins.set('emp-a', PIN);
    for (let i = 0; i < 5; i++) await s.pins.verify('emp-a', WRONG[0] as string);
    expect(s.pins.attempts('emp-a').lockedUntil).toBe(T0 + POLICY.lockoutMs);
    s.clock.advance(POLICY.lockoutMs + 60_000);
    expect(await s.pins.verify('emp-a', WRONG[0] as string)).toEqual({ ok: false, reason: 'wrong', remaining: 4 });
    expect(s.pins.attempts('emp-a')).toEqual({ failures: 1, lockedUntil: null });
  });

  it('the lock of one employee does not touch another', async () => {
    const s = setup();
    await s.pins.set('emp-a', PIN);
    await s.pins.set('emp-b', PIN);
    for (let i = 0; i < 5; i++) await s.pins.verify('emp-a', WRONG[0] as string);
    expect(await s.pins.verify('emp-a', PIN)).toMatchObject({ reason: 'locked' });
    expect(await s.pins.verify('emp-b', PIN)).toEqual({ ok: true });
  });

  it('a restart does not unlock: the count and the lock live in the database', async () => {
    const s = setup();
    await s.pins.set('emp-a', PIN);
    for (let i = 0; i < 3; i++) await s.pins.verify('emp-a', WRONG[0] as string);
    s.db.close();

    let r = open(s.dir, s.clock);
    expect(await r.pins.verify('emp-a', WRONG[0] as string)).toEqual({ ok: false, reason: 'wrong', remaining: 1 });
    expect(await r.pins.verify('emp-a', WRONG[0] as string)).toEqual({ ok: false, reason: 'locked', until: T0 + POLICY.lockoutMs });
    r.db.close();

    r = open(s.dir, s.clock);
    expect(await r.pins.verify('emp-a', PIN)).toEqual({ ok: false, reason: 'locked', until: T0 + POLICY.lockoutMs });
    s.clock.advance(POLICY.lockoutMs);
    expect(await r.pins.verify('emp-a', PIN)).toEqual({ ok: true });
  });

  it("an employee without a PIN answers 'no_pin' (after a decoy hash), and clear removes a PIN", async () => {
    const s = setup();
    expect(s.pins.has('emp-a')).toBe(false);
    expect(await s.pins.verify('emp-a', PIN)).toEqual({ ok: false, reason: 'no_pin' });
    await s.pins.set('emp-a', PIN);
    expect(s.pins.has('emp-a')).toBe(true);
    await s.pins.verify('emp-a', WRONG[0] as string);
    expect(s.pins.clear('emp-a')).toBe(true);
    expect(s.pins.clear('emp-a')).toBe(false);
    expect(s.pins.has('emp-a')).toBe(false);
    expect(s.pins.attempts('emp-a')).toEqual({ failures: 0, lockedUntil: null });
    expect(await s.pins.verify('emp-a', PIN)).toEqual({ ok: false, reason: 'no_pin' });
    const events = s.audit.recent().map((e) => e.event);
    expect(events.filter((e) => e === 'pin_cleared')).toHaveLength(1);
    expect(events.filter((e) => e === 'pin_no_pin')).toHaveLength(2);
  });

  it("a malformed PIN answers 'bad_format' and is not counted, audited or throttled", async () => {
    const s = setup({ throttle: { windowMs: 60_000, freeFailures: 0, stepMs: 5_000, maxWaitMs: 30_000 } });
    await s.pins.set('emp-a', PIN);
    for (const bad of ['', '12', '123456789', '12a4', ' 7391', '７３９１４６']) {
      expect(await s.pins.verify('emp-a', bad)).toEqual({ ok: false, reason: 'bad_format' });
    }
    expect(await s.pins.verify('emp-nobody', '1')).toEqual({ ok: false, reason: 'bad_format' });
    expect(s.pins.attempts('emp-a')).toEqual({ failures: 0, lockedUntil: null });
    expect(attemptEntries(s.audit)).toEqual([]);
    // freeFailures is 0: had any of those counted, this would be throttled
    expect(await s.pins.verify('emp-a', PIN)).toEqual({ ok: true });
  });

  it('the terminal slows down after many failures across different employees, and eases off with time', async () => {
    const s = setup({ throttle: DEFAULT_THROTTLE });
    const ids = Array.from({ length: 14 }, (_, i) => `emp-${i}`);
    for (const id of ids) await s.pins.set(id, PIN);

    // 11 wrong PINs, one per employee (no per-employee lock involved): 10 are free, the 11th is checked too.
    for (let i = 0; i <= 10; i++) {
      expect(await s.pins.verify(ids[i] as string, WRONG[0] as string)).toEqual({ ok: false, reason: 'wrong', remaining: 4 });
      s.clock.advance(100);
    }
    const lastFailure = s.clock.now() - 100;
    // One beyond the allowance: wait stepMs after the latest failure, whoever comes next, right PIN or not.
    expect(await s.pins.verify(ids[11] as string, PIN)).toEqual({ ok: false, reason: 'throttled', waitMs: 1_900 });
    expect(await s.pins.verify(ids[12] as string, WRONG[1] as string)).toEqual({ ok: false, reason: 'throttled', waitMs: 1_900 });
    // a throttled attempt is not checked and does not count against the employee
    expect(s.pins.attempts(ids[12] as string)).toEqual({ failures: 0, lockedUntil: null });
    s.clock.t = lastFailure + 1_999;
    expect(await s.pins.verify(ids[11] as string, PIN)).toEqual({ ok: false, reason: 'throttled', waitMs: 1 });
    s.clock.t = lastFailure + 2_000;
    expect(await s.pins.verify(ids[11] as string, PIN)).toEqual({ ok: true });

    // Another failure: 12 in the window, so two steps.
    expect(await s.pins.verify(ids[12] as string, WRONG[1] as string)).toMatchObject({ reason: 'wrong' });
    expect(await s.pins.verify(ids[13] as string, PIN)).toEqual({ ok: false, reason: 'throttled', waitMs: 4_000 });
    // A "no PIN" answer is a failure too.
    s.clock.advance(4_000);
    expect(await s.pins.verify('emp-unknown', PIN)).toEqual({ ok: false, reason: 'no_pin' });
    expect(await s.pins.verify(ids[13] as string, PIN)).toEqual({ ok: false, reason: 'throttled', waitMs: 6_000 });

    // Once the window has passed over those failures, nothing holds the terminal back.
    s.clock.advance(DEFAULT_THROTTLE.windowMs);
    expect(await s.pins.verify(ids[13] as string, PIN)).toEqual({ ok: true });
    expect(await s.pins.verify(ids[12] as string, PIN)).toEqual({ ok: true });

    const throttled = s.audit.recent().filter((e) => e.event === 'pin_throttled');
    expect(throttled).toHaveLength(5);
    expect(throttled.every((e) => e.employeeId !== null && /wait \d+ ms/.test(e.detail ?? ''))).toBe(true);
  });

  it('the throttle wait grows by stepMs per failure and is capped at maxWaitMs', async () => {
    const throttle: ThrottlePolicy = { windowMs: 600_000, freeFailures: 2, stepMs: 1_000, maxWaitMs: 3_000 };
    const s = setup({ throttle });
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await s.pins.verify(`nobody-${i}`, PIN);
      if (r.ok === false && r.reason === 'throttled') {
        waits.push(r.waitMs);
        s.clock.advance(r.waitMs);
        expect(await s.pins.verify(`nobody-${i}`, PIN)).toEqual({ ok: false, reason: 'no_pin' });
      } else {
        expect(r).toEqual({ ok: false, reason: 'no_pin' });
      }
    }
    expect(waits).toEqual([1_000, 2_000, 3_000, 3_000, 3_000]);
  });

  it('concurrent wrong PINs for one employee cannot get past the lock', async () => {
    const s = setup();
    await s.pins.set('emp-a', PIN);
    const results = await Promise.all(Array.from({ length: 8 }, () => s.pins.verify('emp-a', WRONG[0] as string)));
    expect(results.filter((r) => r.ok === false && r.reason === 'wrong')).toHaveLength(4);
    expect(results.filter((r) => r.ok === false && r.reason === 'locked')).toHaveLength(4);
    const events = attemptEntries(s.audit).map((e) => e.event);
    expect(events.filter((e) => e === 'pin_locked')).toHaveLength(1);
    expect(events.filter((e) => e === 'pin_refused_locked')).toHaveLength(3);
  });

  it('the audit log has one entry per attempt, with the employee id, and never a PIN', async () => {
    const s = setup();
    await s.pins.set('emp-a', PIN);
    await s.pins.set('emp-b', WRONG[2] as string);
    const attempts: Array<[string, string]> = [
      ['emp-a', PIN],
      ['emp-a', WRONG[0] as string],
      ['emp-a', WRONG[1] as string],
      ['emp-b', PIN],
      ['emp-a', WRONG[3] as string],
      ['emp-a', WRONG[0] as string],
      ['emp-a', WRONG[1] as string], // 5th wrong: lock starts
      ['emp-a', PIN], // refused: locked
      ['emp-c', WRONG[3] as string], // no PIN
      ['emp-b', WRONG[2] as string],
    ];
    const results: PinCheck[] = [];
    for (const [id, pin] of attempts) {
      results.push(await s.pins.verify(id, pin));
      s.clock.advance(10);
    }
    await s.pins.verify('emp-b', '12'); // bad format: not an attempt
    s.pins.clear('emp-b');

    const entries = attemptEntries(s.audit).reverse(); // oldest first
    expect(entries.map((e) => [e.employeeId, e.event])).toEqual([
      ['emp-a', 'pin_ok'],
      ['emp-a', 'pin_wrong'],
      ['emp-a', 'pin_wrong'],
      ['emp-b', 'pin_wrong'],
      ['emp-a', 'pin_wrong'],
      ['emp-a', 'pin_wrong'],
      ['emp-a', 'pin_locked'],
      ['emp-a', 'pin_refused_locked'],
      ['emp-c', 'pin_no_pin'],
      ['emp-b', 'pin_ok'],
    ]);
    expect(entries.map((e) => e.at)).toEqual(attempts.map((_, i) => T0 + 10 * i));
    expect(results.map((r) => (r.ok ? 'ok' : r.reason))).toEqual(['ok', 'wrong', 'wrong', 'wrong', 'wrong', 'wrong', 'locked', 'locked', 'no_pin', 'ok']);

    const all = s.audit.recent(10_000);
    expect(all.map((e) => e.event).sort()).toEqual(
      [...entries.map((e) => e.event), 'pin_set', 'pin_set', 'pin_cleared'].sort(),
    );
    for (const e of all) {
      const text = JSON.stringify(e);
      for (const secret of [PIN, ...WRONG]) expect(text).not.toContain(secret);
    }
    expect(entries.find((e) => e.event === 'pin_locked')?.detail).toMatch(/5 wrong PINs in a row; locked until \d{4}-\d\d-\d\dT/);
  });
});

describe('PIN store: the wait between attempts grows with wrong PINs in a row', () => {
  it('the first retry is free (a typo); then 1 s, 2 s… before the next try counts; a right PIN resets it', async () => {
    const { pins, clock } = setup({ attemptDelay: attemptDelayMs });
    await pins.set('emp-d', '739146');
    expect(await pins.verify('emp-d', '000001')).toMatchObject({ reason: 'wrong' });
    expect(await pins.verify('emp-d', '000002')).toMatchObject({ reason: 'wrong' }); // at once: no wait after one failure
    expect(await pins.verify('emp-d', '739146')).toEqual({ ok: false, reason: 'throttled', waitMs: 1_000 });
    clock.advance(1_000);
    expect(await pins.verify('emp-d', '000003')).toMatchObject({ reason: 'wrong' });
    expect(await pins.verify('emp-d', '739146')).toEqual({ ok: false, reason: 'throttled', waitMs: 2_000 });
    clock.advance(2_000);
    expect(await pins.verify('emp-d', '739146')).toEqual({ ok: true });
    expect(await pins.verify('emp-d', '000004')).toMatchObject({ reason: 'wrong' });
    expect(await pins.verify('emp-d', '739146')).toEqual({ ok: true }); // one failure: no wait
  });
});
