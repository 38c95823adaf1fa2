/**
 * The doctor's look at the way to the service: which proxy (if any) requests go through, a CONNECT
 * tunnel through it to the API's host (no request to the API), and the CA list in force. The
 * doctor's service check then sends its one request the same way (agent/diagnostics/service-probe.ts).
 */
import { networkFor, type ApiNetwork } from '../../api/dispatcher.js';
import { TLS_ADVICE, TLS_VERIFY_CODES, tlsCauseOf, type TlsCause } from '../../api/net-errors.js';
import { defaultPort, proxyEnvOf, routeWords, type ProxyRoute } from '../../api/proxy.js';
import { defaultCas, readCaFile, type CaCert } from '../../api/trust.js';
import { openTunnel, type TunnelResult } from '../../api/tunnel.js';
import type { Config } from '../../config.js';

export { TLS_ADVICE, type TlsCause } from '../../api/net-errors.js';
export type { TunnelResult } from '../../api/tunnel.js';

export type NetworkFacts = {
  network: ApiNetwork;
  route: ProxyRoute;
  /** The route in a few words, the proxy's credentials masked. */
  routeWords: string;
  /** The API's `host:port`, as the tunnel asks for it. */
  target: string;
  /** Through a proxy: what the CONNECT tunnel came to; null when direct. */
  tunnel: TunnelResult | null;
  trust: { defaultCount: number; caFile: string | null; certs: CaCert[]; extraCaCerts: string | null };
};

export async function checkNetwork(api: NonNullable<Config['api']>, env: NodeJS.ProcessEnv): Promise<NetworkFacts> {
  const network = networkFor(api.baseUrl, api, proxyEnvOf(env));
  const url = new URL(api.baseUrl);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = defaultPort(url);
  const route = network.route;
  const tunnel =
    route.kind === 'proxy'
      ? await openTunnel(route.url, { host, port }, Math.min(api.timeoutMs, 10_000), network.ca)
      : null;
  const read = api.caFile !== undefined ? readCaFile(api.caFile) : null;
  return {
    network,
    route,
    routeWords: routeWords(route),
    target: `${url.hostname}:${port}`,
    tunnel,
    trust: {
      defaultCount: defaultCas(env).length,
      caFile: api.caFile ?? null,
      certs: read?.ok ? read.certs : [],
      extraCaCerts: env.NODE_EXTRA_CA_CERTS ?? null,
    },
  };
}

/** The certificate-verification code named in a client error text, with its cause; null when it is not one. */
export function tlsFailureIn(error: string): { code: string; cause: TlsCause; advice: string } | null {
  for (const m of error.matchAll(/\b[A-Z][A-Z0-9_]{6,}\b/g)) {
    const cause = TLS_VERIFY_CODES.has(m[0]) ? tlsCauseOf(m[0]) : null;
    if (cause) return { code: m[0], cause, advice: TLS_ADVICE[cause] };
  }
  return null;
}
