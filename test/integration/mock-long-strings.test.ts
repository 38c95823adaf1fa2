/**
 * The mock's `longStrings` variant (issue 23), over real HTTP on loopback: names, the site's name,
 * leave types and the 403 message of POST /times come back exactly N characters long; the stored
 * data is untouched; set at start, with `PUT /__mock/variants` or `--variant long-strings=N`.
 */
import { describe, expect, it } from 'vitest';
import { parseVariantFlags } from '../../src/cli/terminal/mock.js';
import { UsageError } from '../../src/cli/common/options.js';
import { DEMO_SITE_ID, demoSeed } from '../../src/mock/seed.js';
import { padText } from '../../src/mock/variants.js';
import { mockServers } from '../helpers/mock-http.js';
import { call, expectError, page, punch } from '../helpers/mock-pages.js';

const start = mockServers();

describe('the longStrings variant', () => {
  it('pads what people read to exactly N characters in every answer; ids and the stored data are untouched', async () => {
    const srv = await start({ seed: demoSeed(), variants: { longStrings: 5_000, forbiddenPunches: ['1002'] } });
    srv.addLeave({ employee: '1001', type: 'abono', start_date: '2026-11-01', end_date: '2026-11-30', approved: true });

    const employees = await page(srv, '/employees?max_results=50');
    expect(employees._items.length).toBeGreaterThan(0);
    for (const e of employees._items) expect(String(e.full_name)).toHaveLength(5_000);
    const ana = employees._items.find((e) => e.external_id === '1001');
    expect(ana?.full_name).toBe(padText('Ana Paula Ferreira da Silva', 5_000));
    expect(String(ana?.full_name).startsWith('Ana Paula Ferreira da Silva Ana Paula')).toBe(true);
    expect(String(ana?.full_name).endsWith(' ')).toBe(false);

    const site = await call(srv, 'GET', `/sites/${DEMO_SITE_ID}`);
    expect((site.json as { name: string; _id: string }).name).toHaveLength(5_000);
    expect((site.json as { _id: string })._id).toBe(DEMO_SITE_ID);

    const leaves = await page(srv, '/work-leaves?employee_external_id=1001');
    expect(leaves._items.map((l) => l.type)).toEqual([padText('abono', 5_000)]);

    const refused = expectError(await call(srv, 'POST', '/times', { body: punch('1002') }), 403);
    expect(refused._error.message).toHaveLength(5_000);

    // What the mock keeps is as seeded: only the answers are padded.
    expect(srv.employees().find((e) => e.external_id === '1001')?.full_name).toBe('Ana Paula Ferreira da Silva');
    expect(srv.leaves().map((l) => l.type)).toEqual([...(demoSeed().leaves ?? []).map((l) => l.type), 'abono']);
  });

  it('is set and cleared at run time with PUT /__mock/variants', async () => {
    const srv = await start({ seed: demoSeed() });
    const name = async () => String((await page(srv, '/employees?max_results=1'))._items[0]?.full_name);
    expect((await name()).length).toBeLessThan(60);
    expect((await call(srv, 'PUT', '/__mock/variants', { control: true, body: { longStrings: 10_000 } })).status).toBe(
      200,
    );
    expect(await name()).toHaveLength(10_000);
    expect((await call(srv, 'PUT', '/__mock/variants', { control: true, body: { longStrings: 0 } })).status).toBe(422);
    expect((await call(srv, 'PUT', '/__mock/variants', { control: true, body: null })).status).toBe(200);
    expect((await name()).length).toBeLessThan(60);
  });

  it('--variant long-strings=N on the command line; a length outside 1..1000000 is a usage error', () => {
    expect(parseVariantFlags(['long-strings=10000'])).toEqual({ variants: { longStrings: 10_000 }, notAllowed: [] });
    for (const bad of ['long-strings', 'long-strings=0', 'long-strings=1000001', 'long-strings=ten']) {
      expect(() => parseVariantFlags([bad]), bad).toThrow(UsageError);
    }
  });

  it('padText: the text repeated with a space between, exactly N characters, never ending in a space', () => {
    expect(padText('Ana', 10)).toBe('Ana Ana An');
    expect(padText('Ana', 8)).toBe('Ana Ana.');
    expect(padText('Ana Paula', 4)).toBe('Ana Paula');
    expect(padText('Ana', undefined)).toBe('Ana');
  });
});
