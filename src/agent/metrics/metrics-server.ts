/**
 * `metrics.listen`: Prometheus metrics (`GET /metrics`) and a health check (`GET /healthz`) on
 * node:http. Read-only and without secrets, but it tells how busy a site is: it binds where the
 * operator said, and says so in the log when that is reachable from the network. A port already
 * taken costs the metrics only: the terminal keeps taking punches. /healthz answers `ok` (200) while
 * punches can be saved, followed (with Redis configured) by a line on the shared window's mode and
 * one on another live terminal under this id; else 503 and why.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../log.js';
import type { Agent } from '../facade/agent.js';
import { agentMetrics } from './metrics.js';
import { fleetHealthLines } from '../status/fleet-words.js';

export type MetricsServerAgent = Pick<Agent, 'status' | 'requestCounts' | 'captureCounts' | 'health'>;

export type MetricsServer = {
  /** e.g. http://127.0.0.1:9464 */
  origin: string;
  port: number;
  close(): Promise<void>;
};

/** `host:port` or `[v6]:port` (config-fleet.ts checked the shape). */
export function parseListen(listen: string): { host: string; port: number } {
  const i = listen.lastIndexOf(':');
  const host = listen.slice(0, i).replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(listen.slice(i + 1)) };
}

export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (net.isIPv4(host)) return host.split('.')[0] === '127';
  return net.isIPv6(host) && /^(::1|(0{1,4}:){7}0{0,3}1)$/.test(host);
}

const TEXT = 'text/plain; charset=utf-8';

/**
 * Serves until `close()`; null (with one error line in the log) when it cannot listen there.
 * `processMetrics`: prom-client's default process metrics (default on).
 */
export async function startMetricsServer(opts: {
  listen: string;
  agent: MetricsServerAgent;
  log: Logger;
  processMetrics?: boolean;
}): Promise<MetricsServer | null> {
  const { agent, log } = opts;
  const { host, port } = parseListen(opts.listen);
  const metrics = agentMetrics(agent, { processMetrics: opts.processMetrics ?? true });

  const server = http.createServer((req, res) => {
    const reply = (status: number, body: string, type = TEXT, extra: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': type,
        'content-length': Buffer.byteLength(body),
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        ...extra,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return reply(405, 'method not allowed\n', TEXT, { allow: 'GET, HEAD' });
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') {
      const h = safely(() => agent.health());
      return h.ok ? reply(200, ['ok', ...fleetDetails(agent)].join('\n') + '\n') : reply(503, `${h.reason}\n`);
    }
    if (path !== '/metrics') return reply(404, 'not found\n');
    metrics.scrape().then(
      (text) => reply(200, text, metrics.contentType),
      (e: unknown) => {
        const h = safely(() => agent.health());
        reply(503, `${h.ok ? `metrics unavailable: ${oneLine(e)}` : h.reason}\n`);
      },
    );
  });
  // A scrape never needs long: a stuck client must not hold a socket for the life of the terminal.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE'
        ? `${opts.listen} is already in use (another program, or another terminal, listens there)`
        : oneLine(e);
    log.error(`metrics not served: ${why}; the terminal runs on without metrics and /healthz`, {
      listen: opts.listen,
      code,
    });
    return null;
  }
  server.on('error', (e) => log.warn('metrics server error', { error: oneLine(e) }));
  const addr = server.address() as AddressInfo;
  const origin = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
  if (!isLoopbackHost(host)) {
    log.warn(
      'metrics and /healthz are reachable from the network: metrics.listen is not a loopback address (as configured)',
      { listen: opts.listen },
    );
  }
  log.info('metrics served', { metrics: `${origin}/metrics`, healthz: `${origin}/healthz` });

  return {
    origin,
    port: addr.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The shared window's mode and an id conflict (fleet-words.ts); a status that cannot be read adds nothing. */
function fleetDetails(agent: MetricsServerAgent): string[] {
  try {
    return fleetHealthLines(agent.status());
  } catch {
    return [];
  }
}

/** A health check that throws is itself the answer: not healthy, and why. */
function safely(check: () => ReturnType<MetricsServerAgent['health']>): ReturnType<MetricsServerAgent['health']> {
  try {
    return check();
  } catch (e) {
    return { ok: false, reason: oneLine(e) };
  }
}

function oneLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').trim();
}
