/**
 * Doctor checks answered by what the terminal recorded in its database (read-only connection,
 * agent/diagnostics/doctor-reads.ts): the last roster sync, the site filter verdict, the admin PIN, the settings
 * in force. Spending requests to learn again what the agent already learnt would eat the punches'
 * rate window.
 */
import type { StoredFacts } from '../../agent/diagnostics/doctor-reads.js';
import { DEMO_ADMIN_PIN } from '../../agent/open-agent.js';
import type { SiteFilterCheck } from '../../agent/diagnostics/service-probe.js';
import type { Config } from '../../config.js';
import { DEMO_SITE_ID } from '../../mock/seed.js';
import { fail, humanMs, ok, warn, type CheckResult } from './result.js';

// Read by the agent's read-only reader (agent/diagnostics/doctor-reads.ts); these checks word what it found.
export type { StoredFacts } from '../../agent/diagnostics/doctor-reads.js';

/** The site the terminal uses when there is no database yet to hold an override (the demo's own site in the demo). */
export function siteInForce(facts: StoredFacts | null, config: Config, demo: boolean): string | null {
  const site = facts ? facts.siteId : (config.siteId ?? null);
  return site ?? (demo ? DEMO_SITE_ID : null);
}

/** The site filter verdict of the last sync, when that sync was of the site in force. */
export function siteFilterOf(facts: StoredFacts | null, siteId: string | null): SiteFilterCheck | null {
  const sync = facts?.sync;
  if (!sync || !siteId || (sync.siteId !== undefined && sync.siteId !== siteId)) return null;
  return sync.siteFilter ?? null;
}

export function rosterCheck(facts: StoredFacts | null, now: number, refreshMs: number, demo: boolean): CheckResult {
  const name = 'roster';
  const sync = facts?.sync ?? null;
  const lastError = sync && !sync.ok && sync.error ? `; last attempt failed: ${sync.error}` : '';
  if (!sync || sync.lastOkAt === null) {
    if (demo)
      return warn(
        name,
        `no sync completed yet: the demo fetches its roster from the embedded mock at start${lastError}`,
      );
    return fail(
      name,
      `no roster sync ever completed${lastError}: check the service and site above, then timeclock roster sync`,
    );
  }
  const age = now - sync.lastOkAt;
  const base = `${facts?.rosterSize ?? 0} employees, last complete sync ${humanMs(age)} ago`;
  const problems: string[] = [];
  if (age > 2 * refreshMs)
    problems.push(`older than twice roster.refreshMs (${humanMs(2 * refreshMs)}): later syncs fail${lastError || ''}`);
  if (sync.skipped && sync.skipped.count > 0)
    problems.push(
      `${sync.skipped.count} records skipped (the service sent unusable records; timeclock status lists them)`,
    );
  if (sync.heldShrink)
    problems.push(
      `a smaller roster (${sync.heldShrink.employees} employees) is held for confirmation on the admin screen`,
    );
  if (problems.length > 0) return warn(name, `${base}; ${problems.join('; ')}`);
  return ok(name, `${base}${lastError}`);
}

export function adminPinCheck(facts: StoredFacts | null, demo: boolean): CheckResult {
  const name = 'admin PIN';
  if (facts?.adminPin) return ok(name, 'set');
  if (demo) return ok(name, `not set: the demo's PIN ${DEMO_ADMIN_PIN} opens the admin screen (in the demo only)`);
  return fail(
    name,
    `not set${facts ? '' : ' (no database yet)'}: the admin screen cannot be opened; set one with 'timeclock pin set-admin' (PIN on standard input)`,
  );
}
