/**
 * The way to the API as configuration: the proxy variables of the environment and the CA file,
 * checked when the configuration is loaded so that a bad one stops the start with a clear line
 * (and fails the doctor's configuration check) instead of the first request. Which way requests
 * go is decided in api/proxy.ts; this file only validates and keeps secrets out of child processes.
 */
import { PROXY_ENV_NAMES, proxyEnvOf, proxyEnvProblems, type ProxyEnv } from './api/proxy.js';
import { readCaFile } from './api/trust.js';

export const networkEnvKeys: Record<string, string> = {
  TIMECLOCK_API_PROXY: 'api.proxy',
  TIMECLOCK_API_CA_FILE: 'api.caFile',
};

/** A problem of the loaded configuration: the key (or the environment variable) and what is wrong. */
export type NetworkProblem = { key: string; message: string };

export function networkProblems(
  api: { caFile?: string | undefined } | undefined,
  proxyEnv: ProxyEnv,
): NetworkProblem[] {
  const out: NetworkProblem[] = [];
  // Read only when the API is configured: the demo never goes out.
  if (api?.caFile !== undefined) {
    const read = readCaFile(api.caFile);
    if (!read.ok) out.push({ key: 'api.caFile', message: read.problem });
  }
  if (api) for (const p of proxyEnvProblems(proxyEnv)) out.push({ key: '(environment)', message: p });
  return out;
}

export { proxyEnvOf, type ProxyEnv };

/** Whether a proxy variable's value carries credentials (user:password@). */
function hasCredentials(value: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:\/\/)?[^/@]*@/i.test(value.trim());
}

/** The proxy variables that hold credentials: secrets, like the token, for a process we start. */
export function proxyEnvSecrets(env: NodeJS.ProcessEnv): string[] {
  return PROXY_ENV_NAMES.filter(
    (k) => k.toLowerCase() !== 'no_proxy' && env[k] !== undefined && hasCredentials(env[k] as string),
  );
}
