/**
 * A CONNECT tunnel through the proxy to the API's host and port, opened and closed at once: what
 * tells the liveness check (and the doctor) that the way through the proxy is open, without an
 * HTTP request to the API (nothing the account's rate window counts).
 */
import http from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import { proxyRefusalWords, tlsCauseOf, TLS_WORDS } from './net-errors.js';
import { proxyAuthorization, scrubProxySecrets, shownProxy } from './proxy.js';

export type TunnelResult =
  | { ok: true }
  /** `stage`: the proxy could not be reached, or it answered CONNECT with something other than 2xx. */
  | { ok: false; stage: 'proxy_unreachable' | 'refused'; status: number | null; reason: string };

/** Opens `CONNECT host:port` through `proxy` and closes it; gives up after `timeoutMs`. `ca`: for an https:// proxy. */
export function openTunnel(
  proxy: URL,
  target: { host: string; port: number },
  timeoutMs: number,
  ca: readonly string[] | null,
): Promise<TunnelResult> {
  const shown = shownProxy(proxy);
  const authority = `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
  const auth = proxyAuthorization(proxy);
  const lib = proxy.protocol === 'https:' ? https : http;
  const proxyHost = proxy.hostname.replace(/^\[(.*)\]$/, '$1');
  // The proxy's own name for its certificate (Node would take the Host header, the API's); none for an address.
  const proxyTls =
    proxy.protocol === 'https:' ? { servername: isIP(proxyHost) ? '' : proxyHost, ...(ca ? { ca: [...ca] } : {}) } : {};
  return new Promise<TunnelResult>((resolve) => {
    let settled = false;
    const done = (r: TunnelResult, socket?: Socket): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket?.destroy();
      req.destroy();
      resolve(r.ok ? r : { ...r, reason: scrubProxySecrets(r.reason, proxy) });
    };
    const req = lib.request({
      host: proxyHost,
      port: proxy.port !== '' ? Number(proxy.port) : proxy.protocol === 'https:' ? 443 : 80,
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...(auth ? { 'proxy-authorization': auth } : {}) },
      agent: false,
      ...proxyTls,
    });
    const timer = setTimeout(
      () =>
        done({
          ok: false,
          stage: 'proxy_unreachable',
          status: null,
          reason: `proxy ${shown} did not answer CONNECT ${authority} in ${timeoutMs} ms`,
        }),
      timeoutMs,
    );
    const answered = (status: number, socket?: Socket): void => {
      if (status >= 200 && status < 300) done({ ok: true }, socket);
      else
        done(
          {
            ok: false,
            stage: 'refused',
            status,
            reason: `proxy ${shown} refused CONNECT ${authority} (${proxyRefusalWords(status)})`,
          },
          socket,
        );
    };
    req.once('connect', (res, socket) => answered(res.statusCode ?? 0, socket));
    // A refusal comes back as an ordinary answer.
    req.once('response', (res) => {
      res.resume();
      answered(res.statusCode ?? 0);
    });
    req.once('error', (e: NodeJS.ErrnoException) => {
      const cause = tlsCauseOf(e.code);
      const why = cause ? `its certificate was refused: ${e.code}, ${TLS_WORDS[cause]}` : (e.code ?? e.message);
      done({ ok: false, stage: 'proxy_unreachable', status: null, reason: `proxy ${shown} unreachable (${why})` });
    });
    req.end();
  });
}
