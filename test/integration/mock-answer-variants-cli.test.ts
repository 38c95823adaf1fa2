import { describe, expect, it } from 'vitest';
import { parseVariantFlags, runMock } from '../../src/cli/terminal/mock.js';
import { UsageError } from '../../src/cli/common/options.js';
import { serverVariantsSchema } from '../../src/mock/variants.js';

function usageErrorOf(fn: () => unknown): Error {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(UsageError);
  return error as Error;
}

describe('timeclock mock --variant parser: answer variants', () => {
  it('parses every answer variant', () => {
    const flags = [
      'forbid-punches=1001,1002',
      'forbid-punches= 1003 ',
      'redirect=302:https://login.example.com/portal?next=/v2.1',
      'non-api=html-404',
      'conflict-on-duplicate',
      'error-body-on-2xx',
      'times-format=offset',
      'times-end-exclusive',
      'times-answer=400',
      'retry-after-date',
    ];
    const parsed = parseVariantFlags(flags);
    expect(parsed).toEqual({
      variants: {
        forbiddenPunches: ['1001', '1002', '1003'],
        redirect: { status: 302, location: 'https://login.example.com/portal?next=/v2.1' },
        nonApi: 'html-404',
        conflictOnDuplicate: true,
        errorBodyOn2xx: true,
        timesTimeFormat: 'offset',
        timesEndExclusive: true,
        timesAnswer: 400,
        retryAfterDate: true,
      },
      notAllowed: [],
    });
    expect(serverVariantsSchema.parse(parsed.variants)).toEqual(parsed.variants);
  });

  it.each([
    ['redirect=301:/v2.2', { redirect: { status: 301, location: '/v2.2' } }],
    ['redirect=307:http://127.0.0.1:9/x', { redirect: { status: 307, location: 'http://127.0.0.1:9/x' } }],
    ['redirect=308:https://api.example/v2.1/', { redirect: { status: 308, location: 'https://api.example/v2.1/' } }],
    ['non-api=html', { nonApi: 'html' }],
    ['non-api=text', { nonApi: 'text' }],
    ['times-format=seconds', { timesTimeFormat: 'seconds' }],
    ['times-format=utc-z', { timesTimeFormat: 'utc-z' }],
    ['times-format=utc-offset', { timesTimeFormat: 'utc-offset' }],
    ['times-format=rfc1123', { timesTimeFormat: 'rfc1123' }],
    ['times-garbage-record', { timesGarbageRecord: true }],
    ['times-answer=404', { timesAnswer: 404 }],
    ['compress=br', { compress: 'br' }],
    ['post-times-body=truncated-json', { postTimesBody: 'truncated-json' }],
    ['absent-routes=/timesheets,/sites', { absentRoutes: ['/timesheets', '/sites'] }],
    ['date=missing', { date: { mode: 'missing' } }],
    ['date=garbage', { date: { mode: 'garbage' } }],
    ['date=offset:-3600000', { date: { mode: 'offset', offsetMs: -3_600_000 } }],
  ])('%s', (flag, variants) => {
    expect(parseVariantFlags([flag])).toEqual({ variants, notAllowed: [] });
  });

  it('forbid-punches and not-allowed are separate lists', () => {
    expect(parseVariantFlags(['not-allowed=1001', 'forbid-punches=1002'])).toEqual({
      variants: { forbiddenPunches: ['1002'] },
      notAllowed: ['1001'],
    });
  });

  it.each([
    ['forbid-punches', /forbid-punches needs a value/],
    ['forbid-punches=1001,,1002', /forbid-punches needs a comma-separated list/],
    ['redirect', /redirect needs a value/],
    ['redirect=https://x.example/', /redirect needs STATUS:URL/],
    ['redirect=303:https://x.example/', /redirect needs STATUS:URL/],
    ['redirect=302:', /redirect needs STATUS:URL/],
    ['redirect=302:https://x.example/a b', /redirect needs STATUS:URL/],
    ['non-api=json', /non-api needs one of html, html-404, text/],
    ['non-api', /non-api needs a value/],
    ['conflict-on-duplicate=true', /conflict-on-duplicate takes no value/],
    ['error-body-on-2xx=1', /error-body-on-2xx takes no value/],
    ['times-format=minutes', /times-format needs one of seconds, offset/],
    ['times-format=', /times-format needs a value/],
    ['times-end-exclusive=yes', /times-end-exclusive takes no value/],
    ['times-answer=500', /times-answer needs one of 404, 400/],
    ['retry-after-date=http-date', /retry-after-date takes no value/],
    ['compress=zstd', /compress needs one of gzip, deflate, br/],
    ['absent-routes=/employees', /absent-routes needs one of \/times, \/timesheets/],
    ['date=tomorrow', /date needs missing, garbage or offset:MS/],
    ['date=offset:soon', /date needs missing, garbage or offset:MS/],
  ])('rejects %s with one line', (flag, message) => {
    const error = usageErrorOf(() => parseVariantFlags([flag]));
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('\n');
  });

  it('rejects an answer variant given twice; the unknown-name message lists the new names', () => {
    expect(() => parseVariantFlags(['redirect=302:/a', 'redirect=301:/b'])).toThrow(/given twice/);
    expect(() => parseVariantFlags(['times-answer=404', 'times-answer=400'])).toThrow(/given twice/);
    expect(() => parseVariantFlags(['retry-after-date', 'retry-after-date'])).toThrow(/given twice/);
    const msg = usageErrorOf(() => parseVariantFlags(['bogus'])).message;
    for (const name of [
      'forbid-punches',
      'redirect',
      'non-api',
      'conflict-on-duplicate',
      'error-body-on-2xx',
      'times-format',
      'times-end-exclusive',
      'times-answer',
      'retry-after-date',
    ]) {
      expect(msg).toContain(name);
    }
  });

  it('runMock refuses forbid-punches naming an employee the seed does not have, before listening', async () => {
    const run = runMock({ variant: ['forbid-punches=1001,9999'] });
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(runMock({ variant: ['forbid-punches=9999'] })).rejects.toThrow(
      /--variant forbid-punches: no employee with external_id or _id '9999'/,
    );
  });
});
