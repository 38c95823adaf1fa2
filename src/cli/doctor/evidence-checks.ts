/**
 * Doctor checks of the evidence the terminal keeps (Portaria 671): the zone its punch times are
 * written in, and whether its NSRs are guarded against a restore of the data directory.
 */
import type { StoredFacts } from '../../agent/doctor-reads.js';
import type { Config } from '../../config.js';
import { ok, warn, type CheckResult } from './result.js';

const UTC_ZONES = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Universal', 'Etc/Zulu', 'Zulu']);

/**
 * A machine left in UTC with no `timezone` and no site zone yet writes a first punch in UTC wall
 * time (the receipt says 22:48 for 19:48 in São Paulo until the service's zone arrives).
 */
export function timeZoneCheck(config: Pick<Config, 'timezone'>, facts: StoredFacts | null, systemZone: string, demo: boolean): CheckResult {
  const name = 'time zone';
  if (config.timezone) return ok(name, `${config.timezone} (configuration)`);
  if (facts?.siteZone) return ok(name, `${facts.siteZone} (the site, from the service)`);
  if (demo) return ok(name, `${systemZone} (this machine's; the demo's site has its own)`);
  if (UTC_ZONES.has(systemZone)) {
    return warn(name, `neither 'timezone' nor a site zone is known and this machine's zone is ${systemZone}: punches before the first roster sync would be dated in UTC; set "timezone" (e.g. "America/Sao_Paulo") in the configuration`);
  }
  return ok(name, `${systemZone} (this machine's, until the site's zone is known)`);
}

/** The NSR numbering: a restore recognised at a start, and where its guard outside the data directory is. */
export function nsrGuardCheck(facts: StoredFacts | null): CheckResult {
  const name = 'NSR numbering';
  if (!facts) return ok(name, 'no journal yet');
  const r = facts.journalRestore;
  const g = facts.journalGuard;
  const where = g?.mirror ? `mirrored in ${g.mirror}` : 'no mirror outside the data directory (journal.nsrMirrorPath): a restore of the whole data directory is not recognised';
  if (r) return warn(name, `the data directory was put back from an older copy: NSRs ${r.from}-${r.to} were skipped (a 'restored' fact names the gap); ${where}`);
  if (g?.mirrorProblem) return warn(name, g.mirrorProblem);
  return ok(name, where);
}
