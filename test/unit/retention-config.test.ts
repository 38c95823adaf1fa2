/** Config `retention` (issue 14, item 5): defaults, values from the file, and nonsense refused with the key named. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { tempDir } from '../helpers/temp.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir('timeclock-config-')));
afterEach(() => cleanup());

function load(retention: unknown) {
  const file = path.join(dir, 'config.json');
  fs.writeFileSync(
    file,
    JSON.stringify({ dataDir: path.join(dir, 'data'), ...(retention === undefined ? {} : { retention }) }),
  );
  return loadConfig({ file, env: {} });
}

function problems(retention: unknown): string[] {
  try {
    load(retention);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('config retention', () => {
  it('keeps delivered punches 62 days (the current and the previous month), their delivery log 7 and audit lines 400 unless told otherwise', () => {
    expect(load(undefined).config.retention).toEqual({ deliveredDays: 62, auditDays: 400, deliveryLogDays: 7 });
    expect(load({ deliveredDays: 30 }).config.retention).toEqual({
      deliveredDays: 30,
      auditDays: 400,
      deliveryLogDays: 7,
    });
    expect(load({ deliveredDays: 1, auditDays: 3650, deliveryLogDays: 1 }).config.retention).toEqual({
      deliveredDays: 1,
      auditDays: 3650,
      deliveryLogDays: 1,
    });
  });

  it.each([
    [{ deliveredDays: -1 }, /^retention\.deliveredDays \(from file .*config\.json\): must be at least 1 day$/],
    [{ deliveredDays: 0 }, /^retention\.deliveredDays .*: must be at least 1 day$/],
    [{ auditDays: 1.5 }, /^retention\.auditDays .*: must be a whole number of days$/],
    [{ auditDays: '400' }, /^retention\.auditDays .*: must be a whole number of days$/],
    [{ auditDays: null }, /^retention\.auditDays .*: must be a whole number of days$/],
    [{ deliveredDays: 100_000 }, /^retention\.deliveredDays .*: must be at most 3650 days \(10 years\)$/],
    [{ deliveryLogDays: 0 }, /^retention\.deliveryLogDays .*: must be at least 1 day$/],
    [{ keepDays: 30 }, /^retention \(from file .*\): unknown key\(s\) keepDays$/],
    [30, /^retention .*: /],
  ])('refuses %j, naming the key', (retention, message) => {
    const found = problems(retention);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });
});
