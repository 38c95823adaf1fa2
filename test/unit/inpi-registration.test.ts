/**
 * One INPI registration rule at start (the configuration doctor and start load) and at export
 * (issue 26 item 10): a number the terminal starts with is never refused when the AFD is written,
 * and one refused at export is refused at start, naming the key. Also: the example configuration
 * says the clock-skew threshold the code uses (30 s, Portaria 671 Annex IX).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { afdHeaderPlan } from '../../src/agent/exports/afd-header-plan.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { normalizeInpiRegistration } from '../../src/domain/afd/inpi.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('timeclock-inpi-');
afterAll(() => tmp.cleanup());

const EMPLOYER = { name: 'RELOJOARIA SAO JOAO LTDA', cnpj: '11222333000181' };

/** The configuration as `timeclock start` and `timeclock doctor` load it, from a file. */
function load(repRegistration: string) {
  const file = path.join(tmp.dir, 'config.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      dataDir: path.join(tmp.dir, 'data'),
      api: { baseUrl: 'https://api.example.com.br/v2.1', token: 't' },
      employer: { ...EMPLOYER, repRegistration },
    }),
  );
  return loadConfig({ file, env: {} }).config;
}

/** The export's header plan from the raw (unparsed) value, as a configuration built in code has it. */
const plan = (repRegistration: string) =>
  afdHeaderPlan({ employer: { ...EMPLOYER, repRegistration }, afd: {} }, '2026-08-01', '2026-08-31');

describe('the INPI registration', () => {
  it('takes the printed form and plain digits; the start and the export agree on the digits', () => {
    for (const [given, digits] of [
      ['BR512026000123', '512026000123'],
      ['BR 51 2026 000123-4', '5120260001234'],
      ['br512026000123-4', '5120260001234'],
      ['5120230012345', '5120230012345'],
      ['512.023.001.234-5', '5120230012345'],
      ['12345678901234567', '12345678901234567'],
    ] as const) {
      expect(normalizeInpiRegistration(given), given).toBe(digits);
      expect(load(given).employer.repRegistration, given).toBe(digits);
      const p = plan(given);
      expect(p.header.repRegistration, given).toBe(digits);
      expect(p.fileName, given).toBe(`AFD${digits.padStart(17, '0')}11222333000181REP_P.txt`);
    }
  });

  it('refuses the same numbers at start and at export, naming the key', () => {
    for (const bad of ['BR-123', 'BR5120260001234567', '123456789012345678', 'REP 12', '', '51-2026-ABC']) {
      expect(normalizeInpiRegistration(bad), bad).toBeNull();
      let said = '';
      try {
        load(bad);
      } catch (e) {
        said = e instanceof ConfigError ? e.message : String(e);
      }
      expect(said, bad).toMatch(/employer\.repRegistration.*is not the INPI registration, up to 17 digits/s);
      expect(() => plan(bad), bad).toThrow(/employer.repRegistration is the INPI registration, up to 17 digits/);
    }
  });
});

describe('assets/config.example.json', () => {
  it('says the clock-skew threshold the code uses: 30 s', () => {
    const example = JSON.parse(fs.readFileSync('assets/config.example.json', 'utf8')) as {
      clockSkewThresholdMs: number;
    };
    expect(example.clockSkewThresholdMs).toBe(30_000);
    expect(loadConfig({ file: 'assets/config.example.json', env: {} }).config.clockSkewThresholdMs).toBe(30_000);
    // and the default, when the key is left out
    expect(load('5120230012345').clockSkewThresholdMs).toBe(30_000);
  });
});
