import { describe, expect, it } from 'vitest';
import { nsrMirrorDir } from '../../src/agent/journal/open-journal.js';
import { nsrGuardCheck, timeZoneCheck } from '../../src/cli/doctor/evidence-checks.js';
import type { StoredFacts } from '../../src/cli/doctor/stored-checks.js';

const facts = (o: Partial<StoredFacts> = {}): StoredFacts => ({
  sync: null,
  rosterSize: 0,
  adminPin: true,
  siteId: null,
  tokenSavedIn: null,
  ...o,
});

describe('doctor: the zone punches are dated in', () => {
  it('warns when neither timezone nor a site zone is known and the machine is in UTC', () => {
    const r = timeZoneCheck({}, facts(), 'Etc/UTC', false);
    expect(r).toMatchObject({
      check: 'time zone',
      status: 'warn',
      detail: expect.stringMatching(
        /neither 'timezone' nor a site zone is known and this machine's zone is Etc\/UTC: .* set "timezone"/,
      ),
    });
    expect(timeZoneCheck({}, null, 'UTC', false).status).toBe('warn');
  });

  it('is ok with a configured zone, a site zone from the service, or a machine zone that is not UTC', () => {
    expect(timeZoneCheck({ timezone: 'America/Manaus' }, facts(), 'UTC', false)).toMatchObject({
      status: 'ok',
      detail: 'America/Manaus (configuration)',
    });
    expect(timeZoneCheck({}, facts({ siteZone: 'America/Sao_Paulo' }), 'UTC', false)).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/^America\/Sao_Paulo \(the site/),
    });
    expect(timeZoneCheck({}, facts(), 'America/Recife', false).status).toBe('ok');
  });
});

describe('doctor: NSR numbering', () => {
  it('warns about a restore recognised at a start, naming the gap', () => {
    const r = nsrGuardCheck(
      facts({
        journalRestore: { at: 1, from: 5, to: 2_000, where: 'the NSR mirror /var/lib/timeclock-kiosk-nsr' },
        journalGuard: { mirror: '/var/lib/timeclock-kiosk-nsr', mirrorProblem: null },
      }),
    );
    expect(r).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/^the data directory was put back from an older copy: NSRs 5-2000 were skipped/),
    });
  });

  it('says where the mirror is, or that there is none', () => {
    expect(nsrGuardCheck(facts({ journalGuard: { mirror: '/m', mirrorProblem: null } }))).toMatchObject({
      status: 'ok',
      detail: 'mirrored in /m',
    });
    expect(nsrGuardCheck(facts({ journalGuard: { mirror: null, mirrorProblem: null } })).detail).toMatch(
      /^no mirror outside the data directory/,
    );
    expect(
      nsrGuardCheck(
        facts({ journalGuard: { mirror: '/m', mirrorProblem: 'the NSR mirror /m could not be written (EACCES)' } }),
      ).status,
    ).toBe('warn');
  });

  it("says when the NSR mark is also kept in the fleet's Redis (issue 26 item 7)", () => {
    const fleet = "the fleet's Redis (timeclock:nsr:0123456789abcdef0123456789abcdef)";
    expect(nsrGuardCheck(facts({ journalGuard: { mirror: '/m', mirrorProblem: null, fleet } }))).toMatchObject({
      status: 'ok',
      detail: `mirrored in /m; the NSR mark also in ${fleet}`,
    });
    const noMirror = nsrGuardCheck(facts({ journalGuard: { mirror: null, mirrorProblem: null, fleet } })).detail;
    expect(noMirror).toBe(
      `no mirror outside the data directory (journal.nsrMirrorPath); the NSR mark also in ${fleet}`,
    );
    expect(noMirror).not.toMatch(/not recognised/);
  });

  it('the mirror directory: configured, turned off with "", or the package one when it exists', () => {
    expect(nsrMirrorDir({ journal: { verifyEveryMs: 1, nsrMirrorPath: '/x' } }, () => false)).toBe('/x');
    expect(nsrMirrorDir({ journal: { verifyEveryMs: 1, nsrMirrorPath: '' } }, () => true)).toBeNull();
    expect(nsrMirrorDir({ journal: { verifyEveryMs: 1 } }, () => true)).toBe('/var/lib/timeclock-kiosk-nsr');
    expect(nsrMirrorDir({ journal: { verifyEveryMs: 1 } }, () => false)).toBeNull();
  });
});
