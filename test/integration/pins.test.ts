/**
 * The PIN store (src/store/roster/pins.ts) on a real SQLite file: no PIN in clear anywhere in the data
 * directory, a new salt on every set, malformed PINs refused, employees without a PIN, and the
 * audit log (one entry per attempt, never a PIN). Counting, locking and throttling:
 * pin-lockout.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/database.js';
import { DEFAULT_SCRYPT_PARAMS } from '../../src/store/roster/pins.js';
import type { PinCheck } from '../../src/store/roster/pin-attempts.js';
import { attemptEntries, PIN, pinStores, T0, WRONG } from '../helpers/pin-store.js';

const { setup } = pinStores();

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
    await expect(s.pins.set('emp-a', '12')).rejects.toThrow(
      /cannot set the PIN of employee emp-a: a PIN has at least 4 digits/,
    );
    await expect(s.pins.set('emp-a', '12x45')).rejects.toThrow(/only the digits 0-9/);
    await expect(s.pins.set('emp-a', '123456789')).rejects.toThrow(/at most 8 digits/);
    await expect(s.pins.set('', '1234')).rejects.toThrow(/employee id is empty/);
    const err = await s.pins.set('emp-a', '99x77').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).not.toContain('99x77');
    expect(s.pins.has('emp-a')).toBe(false);
    expect(pinRows(s.db)).toEqual([]);
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
    expect(results.map((r) => (r.ok ? 'ok' : r.reason))).toEqual([
      'ok',
      'wrong',
      'wrong',
      'wrong',
      'wrong',
      'wrong',
      'locked',
      'locked',
      'no_pin',
      'ok',
    ]);

    const all = s.audit.recent(10_000);
    expect(all.map((e) => e.event).sort()).toEqual(
      [...entries.map((e) => e.event), 'pin_set', 'pin_set', 'pin_cleared'].sort(),
    );
    for (const e of all) {
      const text = JSON.stringify(e);
      for (const secret of [PIN, ...WRONG]) expect(text).not.toContain(secret);
    }
    expect(entries.find((e) => e.event === 'pin_locked')?.detail).toMatch(
      /5 wrong PINs in a row; locked until \d{4}-\d\d-\d\dT/,
    );
  });
});
