/**
 * Doctor checks that ask the service: reachable, token accepted, site known, and the service's
 * clock against ours. All from ONE read-only GET (agent/diagnostics/service-probe.ts), so a doctor run beside
 * a working terminal costs the account's rate window a single request.
 */
import { savedFileToken, type ServiceProbe, type SiteFilterCheck } from '../../agent/diagnostics/service-probe.js';
import type { NtpReading } from '../../agent/host/ntp-sync.js';
import { fail, firstLine, humanMs, ok, warn, type CheckResult } from './result.js';
import { unreachableWords } from './network-checks.js';

// The request itself is the agent's (agent/diagnostics/service-probe.ts); these checks word what it found.
export {
  probeService,
  realApi,
  type DoctorApi,
  type DoctorApiFactory,
  type ServiceProbe,
} from '../../agent/diagnostics/service-probe.js';

/**
 * The token the terminal would use: one saved from the admin screen (a 0600 file in the data
 * directory) wins over the configured one, as at start (agent/settings/settings.ts `startingToken`). One
 * kept in Electron's secret store cannot be read outside the app: the configured one is checked.
 */
export function tokenInUse(
  configToken: string,
  dataDir: string,
  savedIn: 'keyring' | 'file' | null,
): { token: string; from: string } {
  if (savedIn === 'keyring')
    return {
      token: configToken,
      from: 'the configured token (the one saved on the admin screen is in the secret store, unreadable here)',
    };
  try {
    const saved = savedFileToken(dataDir);
    if (saved !== null) return { token: saved, from: 'the token saved on the admin screen' };
  } catch (e) {
    return { token: configToken, from: `the configured token (the saved one is not used: ${firstLine(e)})` };
  }
  return { token: configToken, from: 'the configured token' };
}

/** Reachable, and the token accepted: any answer of the API but 401/403/429 says both. */
export function serviceCheck(p: ServiceProbe | null, timeoutMs: number): CheckResult {
  const name = 'service';
  if (!p)
    return warn(
      name,
      'demo: the embedded mock API runs only inside the terminal (timeclock start), so there is nothing to reach now',
    );
  const o = p.outcome;
  const via = `${p.request}, ${p.tokenFrom}`;
  switch (o.kind) {
    case 'ok':
    case 'refused':
      return ok(name, `reachable, token accepted (${via}: ${o.status} in ${p.receivedAt - p.sentAt} ms)`);
    case 'auth':
      return fail(name, `token refused (${o.reason}; ${via}): set a working token on the admin screen or in api.token`);
    case 'forbidden':
      return fail(
        name,
        `token not allowed (${o.reason}; ${via}): ask the service's administrator for the token's rights`,
      );
    case 'rate_limited':
      return warn(
        name,
        `reachable, but rate limited (429${o.retryAfterHeader ? `, Retry-After ${o.retryAfterHeader}` : ''}): the token's window is used up; try again later`,
      );
    case 'not_sent':
      return fail(name, unreachableWords(o.error));
    case 'unknown':
      return fail(
        name,
        `no usable answer within ${timeoutMs} ms (${o.error}): check the network or raise api.timeoutMs`,
      );
    case 'server_error':
      return fail(name, `the service answered with an error (${o.error}): try again later or ask its administrator`);
    case 'setup':
      return fail(name, `${o.reason}: check api.baseUrl and any proxy in between`);
  }
}

const filterWords: Record<SiteFilterCheck, string> = {
  verified: 'the service honours the site filter (last roster sync)',
  suspect:
    "the service counted as many employees for the site as for the account at the last roster sync: it may ignore the site filter; set api.dialect.siteFilterParam to the service's name for it, unless every employee really is at this site",
  unknown: 'whether the service honours the site filter is not known yet',
  one_site: 'the account has one site, so the site filter has nothing to leave out',
};

/**
 * The site answered, and whether the roster sync found the site filter honoured (recorded by
 * roster-keeper; asking again would cost requests). `filter`: null when no sync of this site recorded one.
 */
export function siteCheck(
  siteId: string | null,
  p: ServiceProbe | null,
  filter: SiteFilterCheck | null,
  demo: boolean,
): CheckResult {
  const name = 'site';
  if (!siteId) return ok(name, 'none configured: the roster holds every active employee of the account');
  if (demo) return ok(name, `demo site ${siteId} (the embedded mock serves it)`);
  if (!p) return warn(name, `${siteId} not checked`);
  const o = p.outcome;
  if (o.kind === 'refused' && o.status === 404)
    return fail(
      name,
      `the service has no site ${siteId} (${o.reason}): fix siteId, or set the site on the admin screen`,
    );
  if (o.kind !== 'ok') return warn(name, `${siteId} not checked: the service check above failed`);
  const label = p.site?.name ? `${p.site.name} (${siteId})` : siteId;
  const words = filterWords[filter ?? 'unknown'];
  return filter === 'suspect' ? warn(name, `${label} found; but ${words}`) : ok(name, `${label} found; ${words}`);
}

/** This machine's NTP state (agent/host/ntp-sync.ts) and `clock.serviceSkewBoundMs`: who wins a disagreement. */
export type ClockJudge = { ntp: NtpReading; boundMs: number };

const NTP_WORDS: Record<NtpReading['sync'], string> = {
  yes: 'NTP-synchronised',
  no: 'not NTP-synchronised',
  unknown: 'NTP state unknown',
};

/**
 * The service's `Date` (whole seconds, so +500 ms is its most likely value) against the middle of
 * our request; the uncertainty is half a second plus half the round trip. With `judge`, the verdict
 * the terminal itself reaches (domain/time/date-plausibility.ts): this machine's synchronised clock is
 * kept against a service off by more than the bound; an unsynchronised one follows the service.
 */
export function clockCheck(
  p: ServiceProbe | null,
  thresholdMs: number,
  demo: boolean,
  judge?: ClockJudge,
): CheckResult {
  const name = 'clock';
  if (demo) return ok(name, "demo: the embedded mock keeps this machine's time, nothing to compare");
  const ntp = judge ? `; this machine: ${NTP_WORDS[judge.ntp.sync]} (${judge.ntp.source})` : '';
  if (!p || p.outcome.kind === 'not_sent' || p.outcome.kind === 'unknown')
    return warn(name, `not measured: no answer from the service${ntp}`);
  if (p.serverDate === null) {
    const said = p.dateHeader ? `its Date "${p.dateHeader.slice(0, 60)}" cannot be read` : 'no Date header';
    return warn(
      name,
      `not measured: the service sends no usable Date (${said}): punches are sent at this machine's clock, marked unanchored${ntp}`,
    );
  }
  const offset = p.serverDate + 500 - (p.sentAt + p.receivedAt) / 2;
  const uncertainty = 500 + (p.receivedAt - p.sentAt) / 2;
  const plusMinus = `±${(uncertainty / 1000).toFixed(1)} s`;
  const how = `this machine is ${humanMs(Math.abs(offset))} ${offset > 0 ? 'behind' : 'ahead of'} the service (${plusMinus})`;
  if (judge && Math.abs(offset) > judge.boundMs) {
    const beyond = `${how}, more than clockSkewThresholdMs (${humanMs(thresholdMs)}) and clock.serviceSkewBoundMs (${humanMs(judge.boundMs)})`;
    if (judge.ntp.sync === 'yes') {
      return warn(
        name,
        `${beyond}: the service's clock is off by ${humanMs(Math.abs(offset))}; this machine is NTP-synchronised, so the terminal keeps its own time and marks the punches; ask the service's administrator to fix its clock${ntp}`,
      );
    }
    return warn(
      name,
      `${beyond}: this machine is not known to be synchronised, so the terminal follows the service's clock once a second answer agrees; fix the time sync${ntp}`,
    );
  }
  if (Math.abs(offset) > thresholdMs) {
    const advice = judge?.ntp.sync === 'yes' ? "check the service's clock" : 'fix the time sync';
    return warn(
      name,
      `${how}, more than clockSkewThresholdMs (${humanMs(thresholdMs)}): punches are recorded at the service's time and flagged; ${advice}${ntp}`,
    );
  }
  return ok(name, `${how}${ntp}`);
}
