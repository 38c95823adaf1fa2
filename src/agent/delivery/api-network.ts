/**
 * The way to the service for this configuration (api/dispatcher.ts `networkFor`): the agent's
 * client, its liveness check and the doctor all take it from here, so they go the same way.
 */
import { networkFor, type ApiNetwork } from '../../api/dispatcher.js';
import { proxyEnvOf, routeWords, type ProxyEnv } from '../../api/proxy.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';

export type { ApiNetwork } from '../../api/dispatcher.js';
export { routeWords } from '../../api/proxy.js';

/** Said once at start: which way requests go (the proxy with its credentials masked) and whether a CA file is added. */
export function apiNetworkOf(api: NonNullable<Config['api']>, rt: { proxyEnv?: ProxyEnv; log: Logger }): ApiNetwork {
  const network = networkFor(api.baseUrl, api, rt.proxyEnv ?? proxyEnvOf(process.env));
  rt.log.info('the way to the service', { route: routeWords(network.route), caFile: api.caFile ?? null });
  return network;
}
