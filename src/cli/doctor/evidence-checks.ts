/**
 * Doctor checks of the evidence the terminal keeps (Portaria 671): the zone its punch times are
 * written in, whether its NSRs are guarded against a restore of the data directory, and (issue 26)
 * the workers whose punches the evidence cannot fully name, listed before they punch: no CPF
 * (their marks carry twelve zeros), no employer of their own (receipts and AFD fall back to the
 * configured employer). A warning, never a failure: their punches are taken and kept all the same.
 */
import type { StoredFacts } from '../../agent/diagnostics/doctor-reads.js';
import type { Config } from '../../config.js';
import { ok, warn, type CheckResult } from './result.js';

const UTC_ZONES = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Universal', 'Etc/Zulu', 'Zulu']);

/**
 * A machine left in UTC with no `timezone` and no site zone yet writes a first punch in UTC wall
 * time (the receipt says 22:48 for 19:48 in São Paulo until the service's zone arrives).
 */
export function timeZoneCheck(
  config: Pick<Config, 'timezone'>,
  facts: StoredFacts | null,
  systemZone: string,
  demo: boolean,
): CheckResult {
  const name = 'time zone';
  if (config.timezone) return ok(name, `${config.timezone} (configuration)`);
  if (facts?.siteZone) return ok(name, `${facts.siteZone} (the site, from the service)`);
  if (demo) return ok(name, `${systemZone} (this machine's; the demo's site has its own)`);
  if (UTC_ZONES.has(systemZone)) {
    return warn(
      name,
      `neither 'timezone' nor a site zone is known and this machine's zone is ${systemZone}: punches before the first roster sync would be dated in UTC; set "timezone" (e.g. "America/Sao_Paulo") in the configuration`,
    );
  }
  return ok(name, `${systemZone} (this machine's, until the site's zone is known)`);
}

/** The NSR numbering: a restore recognised at a start, and where its guard outside the data directory is. */
export function nsrGuardCheck(facts: StoredFacts | null): CheckResult {
  const name = 'NSR numbering';
  if (!facts) return ok(name, 'no journal yet');
  const r = facts.journalRestore;
  const g = facts.journalGuard;
  const fleet = g?.fleet ? `; the NSR mark also in ${g.fleet}` : '';
  const where = g?.mirror
    ? `mirrored in ${g.mirror}${fleet}`
    : g?.fleet
      ? `no mirror outside the data directory (journal.nsrMirrorPath)${fleet}`
      : 'no mirror outside the data directory (journal.nsrMirrorPath): a restore of the whole data directory is not recognised';
  if (r)
    return warn(
      name,
      `the data directory was put back from an older copy: NSRs ${r.from}-${r.to} were skipped (a 'restored' fact names the gap); ${where}`,
    );
  if (g?.mirrorProblem) return warn(name, g.mirrorProblem);
  return ok(name, where);
}

const names = (list: readonly string[], count: number): string =>
  `${list.join(', ')}${count > list.length ? `, and ${count - list.length} more` : ''}`;

export function rosterEvidenceCheck(facts: StoredFacts | null, employerConfigured: boolean): CheckResult {
  const name = 'roster evidence';
  const g = facts?.evidenceGaps;
  if (!g) return ok(name, 'no roster yet');
  const problems: string[] = [];
  if (g.noCpf.count > 0)
    problems.push(
      `${g.noCpf.count} without a CPF (the AFD shows twelve zeros for their punches): ${names(
        g.noCpf.employees.map((e) => e.name),
        g.noCpf.count,
      )}`,
    );
  const fallback = g.noPaymentSource.count + g.noEmployer.count;
  if (fallback > 0) {
    const who = names(
      [
        ...g.noPaymentSource.names,
        ...g.noEmployer.employees.map(
          (e) => `${e.name} (${e.reason === 'unread' ? 'employer not read yet' : 'employer unknown to the service'})`,
        ),
      ],
      fallback,
    );
    problems.push(
      `${fallback} without an employer of their own, so receipts and AFD name the configured employer${employerConfigured ? '' : ' (none is configured: set employer.name and employer.cnpj)'}: ${who}`,
    );
  }
  return problems.length > 0 ? warn(name, problems.join('; ')) : ok(name, 'every worker has a CPF and an employer');
}
