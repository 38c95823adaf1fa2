/**
 * The undici dispatcher the API client sends through: straight to the host, or through an HTTP(S)
 * proxy by CONNECT (proxy.ts decides which), with the terminal's trust list (trust.ts) for the
 * service's certificate and an https:// proxy's. The same connection settings either way.
 */
import type { Dispatcher } from 'undici';
import { connectTimeoutMs } from './deadline.js';
import { proxyEnvOf, routeFor, type ProxyEnv, type ProxyRoute } from './proxy.js';
import { readCaFile, trustedCas } from './trust.js';
import { Agent, ProxyAgent } from './undici-parts.js';

/** The way to the service: the route (proxy or direct) and the CA list (null: Node's default). */
export type ApiNetwork = { route: ProxyRoute; ca: readonly string[] | null };

/**
 * The network settings for `baseUrl` from `api.proxy`, `api.caFile` and the environment's proxy
 * variables. Throws with the problem when the CA file cannot be used (loadConfig has said so at
 * start already; this is the last guard).
 */
export function networkFor(
  baseUrl: string,
  api: { proxy?: string | undefined; caFile?: string | undefined },
  env: ProxyEnv = proxyEnvOf(process.env),
): ApiNetwork {
  const route = routeFor(new URL(baseUrl), api.proxy, env);
  if (api.caFile === undefined) return { route, ca: null };
  const read = readCaFile(api.caFile);
  if (!read.ok) throw new Error(`api.caFile: ${read.problem}`);
  return { route, ca: trustedCas(read.certs) };
}

export function buildDispatcher(timeoutMs: number, network: ApiNetwork): Dispatcher {
  const tls = network.ca ? { ca: [...network.ca] } : {};
  const connectTimeout = connectTimeoutMs(timeoutMs);
  const common = {
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    // Short keep-alive so we rarely write into a socket the server is closing (which would turn
    // a harmless retry into an in-doubt punch that costs a reconciliation request).
    keepAliveTimeout: 2_000,
    keepAliveMaxTimeout: 10_000,
    pipelining: 1,
  };
  if (network.route.kind === 'direct') return new Agent({ ...common, connect: { timeout: connectTimeout, ...tls } });
  // Credentials stay in the URL: undici turns them into Proxy-Authorization for CONNECT only.
  // Every request is tunnelled (an http:// API too), so the proxy sees only host and port.
  return new ProxyAgent({
    ...common,
    uri: network.route.url.href,
    proxyTunnel: true,
    requestTls: { timeout: connectTimeout, ...tls },
    proxyTls: { timeout: connectTimeout, ...tls },
  });
}
