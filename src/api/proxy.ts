/**
 * Which way the terminal's requests to the API go: straight to the host, or through an HTTP proxy
 * (CONNECT tunnel). Decided once per base URL, here, so the client, the liveness check and the
 * doctor always agree.
 *
 * Rules (README "Networks"): `api.proxy` wins over HTTPS_PROXY / HTTP_PROXY (lower-case forms
 * first, as curl and undici read them; an https:// API falls back to HTTP_PROXY); NO_PROXY applies
 * to either, with undici's syntax (comma or space separated `host[:port]`, a leading `.` or `*.`
 * for subdomains, `*` for everything); a loopback host (localhost, 127.0.0.0/8, ::1) is always
 * reached directly, as no proxy can reach this machine's loopback (the demo's embedded API).
 *
 * A proxy URL may carry `user:password`: those are secrets like the token. `shown` is the only
 * form that may be printed (`http://***@proxy.example:3128`).
 */

/** The proxy variables of an environment, each with the name it was read from. */
export type ProxyEnv = {
  https?: { value: string; from: string };
  http?: { value: string; from: string };
  noProxy?: { value: string; from: string };
};

/** Every name the proxy settings are read from (lower-case first: it wins). */
export const PROXY_ENV_NAMES = [
  'https_proxy',
  'HTTPS_PROXY',
  'http_proxy',
  'HTTP_PROXY',
  'no_proxy',
  'NO_PROXY',
] as const;

function pick(env: NodeJS.ProcessEnv, names: readonly string[]): { value: string; from: string } | undefined {
  for (const from of names) {
    const value = env[from];
    if (value !== undefined && value.trim() !== '') return { value: value.trim(), from };
  }
  return undefined;
}

export function proxyEnvOf(env: NodeJS.ProcessEnv): ProxyEnv {
  const out: ProxyEnv = {};
  const https = pick(env, ['https_proxy', 'HTTPS_PROXY']);
  const http = pick(env, ['http_proxy', 'HTTP_PROXY']);
  const noProxy = pick(env, ['no_proxy', 'NO_PROXY']);
  if (https) out.https = https;
  if (http) out.http = http;
  if (noProxy) out.noProxy = noProxy;
  return out;
}

/**
 * A proxy URL as the terminal accepts it: http:// or https://, a host, an optional port, no path.
 * `proxy.example:3128` (no scheme, as many environments write it) means http://. The problem
 * never quotes the text: it may hold a password.
 */
export function parseProxyUrl(text: string): { ok: true; url: URL } | { ok: false; problem: string } {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return {
      ok: false,
      problem: 'is not a URL (expected http://host:port, with user:password@ if the proxy asks for them)',
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, problem: `must be an http:// or https:// proxy (${url.protocol}// is not supported)` };
  if (url.hostname === '') return { ok: false, problem: 'has no host' };
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '')
    return { ok: false, problem: 'must be only scheme, host and port (no path or query)' };
  return { ok: true, url };
}

/** The proxy as it may be printed: credentials replaced by `***`, no trailing slash. */
export function shownProxy(url: URL): string {
  const creds = url.username !== '' || url.password !== '' ? '***@' : '';
  return `${url.protocol}//${creds}${url.host}`;
}

/** `Proxy-Authorization` for a URL that carries credentials (Basic, as undici sends it), else null. */
export function proxyAuthorization(url: URL): string | null {
  if (url.username === '' && url.password === '') return null;
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return `Basic ${Buffer.from(pair).toString('base64')}`;
}

/** Every form the proxy's credentials could take in a text: removed from error messages before they are kept. */
export function proxySecrets(url: URL): string[] {
  if (url.username === '' && url.password === '') return [];
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  const forms = [
    `${url.username}:${url.password}`,
    `${user}:${pass}`,
    Buffer.from(`${user}:${pass}`).toString('base64'),
    url.password,
    pass,
  ];
  // A one-letter password would blank out half of every message; it is still kept out of shown URLs.
  return [...new Set(forms)].filter((f) => f.length >= 4).sort((a, b) => b.length - a.length);
}

/** `text` with every form of the proxy's credentials replaced by `***`. */
export function scrubProxySecrets(text: string, url: URL | null): string {
  if (!url) return text;
  let out = text;
  for (const s of proxySecrets(url)) out = out.split(s).join('***');
  return out;
}

const bare = (hostname: string): string =>
  hostname
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.$/, '');

/** localhost (and *.localhost), 127.0.0.0/8 and ::1: this machine, which no proxy can reach for us. */
export function isLoopbackHost(hostname: string): boolean {
  const h = bare(hostname);
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) ||
    h === '::1' ||
    h === '0:0:0:0:0:0:0:1'
  );
}

/** Whether NO_PROXY names this host (and port): undici's EnvHttpProxyAgent rules. */
export function noProxyMatches(hostname: string, port: number, noProxy: string): boolean {
  const host = bare(hostname);
  const entries = noProxy.split(/[,\s]/).filter((e) => e !== '');
  if (entries.length === 0) return false;
  if (noProxy.trim() === '*') return true;
  for (const entry of entries) {
    const m = /^(.+):(\d+)$/.exec(entry);
    const entryHost = bare((m ? (m[1] as string) : entry).replace(/^\*?\./, ''));
    const entryPort = m ? Number(m[2]) : 0;
    if (entryPort !== 0 && entryPort !== port) continue;
    if (host === entryHost || host.endsWith(`.${entryHost}`)) return true;
  }
  return false;
}

export type ProxyRoute =
  | { kind: 'proxy'; url: URL; shown: string; from: string }
  | { kind: 'direct'; why: 'none' | 'no_proxy' | 'loopback'; from: string | null };

export function defaultPort(url: URL): number {
  return url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/**
 * The way to `target`. `configured`: api.proxy (already validated by the config schema); an
 * environment value that cannot be parsed throws (loadConfig reports it first, at start).
 */
export function routeFor(target: URL, configured: string | undefined, env: ProxyEnv): ProxyRoute {
  if (isLoopbackHost(target.hostname)) return { kind: 'direct', why: 'loopback', from: null };
  const chosen =
    configured !== undefined
      ? { value: configured, from: 'api.proxy' }
      : target.protocol === 'https:'
        ? (env.https ?? env.http)
        : env.http;
  if (!chosen) return { kind: 'direct', why: 'none', from: null };
  if (env.noProxy && noProxyMatches(target.hostname, defaultPort(target), env.noProxy.value))
    return { kind: 'direct', why: 'no_proxy', from: env.noProxy.from };
  const parsed = parseProxyUrl(chosen.value);
  if (!parsed.ok) throw new Error(`${chosen.from} ${parsed.problem}`);
  return { kind: 'proxy', url: parsed.url, shown: shownProxy(parsed.url), from: chosen.from };
}

/** Problems with the proxy variables of the environment (each names the variable, never its value). */
export function proxyEnvProblems(env: ProxyEnv): string[] {
  const out: string[] = [];
  for (const v of [env.https, env.http]) {
    if (!v) continue;
    const parsed = parseProxyUrl(v.value);
    if (!parsed.ok) out.push(`${v.from} ${parsed.problem}`);
  }
  return out;
}

/** The route in a few words, for status lines and logs: `through proxy http://***@p:3128 (HTTPS_PROXY)` or `direct`. */
export function routeWords(route: ProxyRoute): string {
  if (route.kind === 'proxy') return `through proxy ${route.shown} (${route.from})`;
  if (route.why === 'loopback') return 'direct (a loopback address is never proxied)';
  if (route.why === 'no_proxy') return `direct (${route.from} names the API host)`;
  return 'direct (no proxy set)';
}
