/**
 * Doctor checks of the way to the service: the proxy in use (from api.proxy or the environment,
 * its credentials masked) and a CONNECT tunnel through it to the API's host; the CA list in force;
 * and the advice for a request that never reached the service (a refused certificate names its
 * cause). The service check that follows sends its one request the same way.
 */
import { tlsFailureIn, type NetworkFacts } from '../../agent/diagnostics/network-check.js';
import { fail, humanMs, ok, warn, type CheckResult } from './result.js';

export { checkNetwork, type NetworkFacts } from '../../agent/diagnostics/network-check.js';

export function proxyCheck(facts: NetworkFacts | null): CheckResult {
  const name = 'proxy';
  if (!facts) return ok(name, "none: the demo's embedded API is on this machine");
  const route = facts.route;
  if (route.kind === 'direct') {
    if (route.why === 'none')
      return ok(
        name,
        `none: the terminal connects straight to ${facts.target} (no api.proxy, HTTPS_PROXY or HTTP_PROXY)`,
      );
    return ok(name, `none for ${facts.target}: ${facts.routeWords}`);
  }
  const t = facts.tunnel;
  const via = `${route.shown} (from ${route.from})`;
  if (!t || t.ok) return ok(name, `${via}: CONNECT ${facts.target} accepted`);
  if (t.stage === 'proxy_unreachable' && /certificate was refused/.test(t.reason))
    return fail(name, `${t.reason} (from ${route.from})`);
  if (t.stage === 'proxy_unreachable')
    return fail(name, `${t.reason}: check the proxy's address in ${route.from}, and that this machine may reach it`);
  return fail(name, `${via}: ${t.reason.replace(/^proxy \S+ /, '')}`);
}

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export function trustCheck(facts: NetworkFacts | null, now: number): CheckResult {
  const name = 'trust';
  if (!facts) return ok(name, 'demo: the embedded API is plain http on this machine');
  const t = facts.trust;
  const extra = t.extraCaCerts ? `, with NODE_EXTRA_CA_CERTS ${t.extraCaCerts}` : '';
  if (!t.caFile) return ok(name, `Node's default CA list (${t.defaultCount} certificates${extra}); no api.caFile`);
  const listed = t.certs.map((c) => `${c.subject}, valid until ${day(c.validTo)}`).join('; ');
  const head = `api.caFile ${t.caFile}: ${t.certs.length} certificate${t.certs.length === 1 ? '' : 's'} (${listed}) added to Node's ${t.defaultCount} default CAs${extra}`;
  const expired = t.certs.find((c) => c.validTo < now);
  if (expired)
    return warn(
      name,
      `${head}; ${expired.subject} expired ${humanMs(now - expired.validTo)} ago: the service's certificates it signed no longer verify (or this terminal's date is wrong)`,
    );
  const early = t.certs.find((c) => c.validFrom > now);
  if (early)
    return warn(
      name,
      `${head}; ${early.subject} is valid only from ${day(early.validFrom)}: check this terminal's date`,
    );
  return ok(name, head);
}

/**
 * The service check's words for a request that never reached the service: a refused certificate
 * names its cause and what to do; the proxy refusing the tunnel names the proxy; else the usual.
 */
export function unreachableWords(error: string): string {
  const tls = tlsFailureIn(error);
  if (tls) return `certificate refused (${tls.code}): ${tls.advice}`;
  if (/the proxy refused the tunnel/.test(error))
    return `unreachable through the proxy (${error}): see the proxy line above`;
  if (/via proxy /.test(error)) return `unreachable (${error}): check the proxy line above, then api.baseUrl`;
  return `unreachable (${error}): check api.baseUrl, the network, DNS and the firewall`;
}
