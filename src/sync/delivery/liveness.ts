/**
 * Knowing the service is gone without spending the request budget: a TCP connection to the
 * service's host (no HTTP request, so nothing the account's 60 a minute counts), every few
 * seconds. The idle screen then turns offline within `everyMs × failuresToOffline + timeoutMs`
 * of the service going away, and back within `everyMs` of its return, with nobody punching.
 *
 * It says only whether the host takes connections: whether the API answers is still learnt from
 * real requests (a punch, a roster page), which take precedence when newer.
 */
import net from 'node:net';
import type { ApiNetwork } from '../../api/dispatcher.js';
import { defaultPort } from '../../api/proxy.js';
import { openTunnel } from '../../api/tunnel.js';

export type ProbeResult = { ok: true } | { ok: false; reason: string };
export type Probe = () => Promise<ProbeResult>;

/** A TCP connect to the URL's host and port (443 for https, 80 for http), given up after `timeoutMs`. */
export function tcpProbe(baseUrl: string, timeoutMs: number): Probe {
  const url = new URL(baseUrl);
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  // URL keeps an IPv6 literal's brackets; net.connect wants the bare address.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return () =>
    new Promise<ProbeResult>((resolve) => {
      const socket = net.connect({ host, port });
      const done = (r: ProbeResult): void => {
        socket.removeAllListeners();
        socket.on('error', () => undefined);
        socket.destroy();
        resolve(r);
      };
      socket.setTimeout(timeoutMs, () =>
        done({ ok: false, reason: `no answer from ${host}:${port} in ${timeoutMs} ms` }),
      );
      socket.once('connect', () => done({ ok: true }));
      socket.once('error', (e: NodeJS.ErrnoException) =>
        done({ ok: false, reason: `${e.code ?? e.message} ${host}:${port}` }),
      );
    });
}

/**
 * The probe for the way requests go: through the proxy, a CONNECT tunnel to the API's host and
 * port, opened and closed (a proxy refusing it or gone: not reachable, the reason naming the
 * proxy); direct, the TCP connect above.
 */
export function routeProbe(baseUrl: string, network: ApiNetwork, timeoutMs: number): Probe {
  const route = network.route;
  if (route.kind === 'direct') return tcpProbe(baseUrl, timeoutMs);
  const url = new URL(baseUrl);
  const target = { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: defaultPort(url) };
  return async () => {
    const r = await openTunnel(route.url, target, timeoutMs, network.ca);
    return r.ok ? { ok: true } : { ok: false, reason: r.reason };
  };
}

export type Reachability = { reachable: boolean; at: number; reason: string | null };

/**
 * Turns probe results into a reachable / unreachable state: one failure may be a blip (a busy
 * router), `failuresToOffline` in a row are not; one success is enough to say it is back.
 */
export class LivenessWatch {
  private failures = 0;
  private state: Reachability | null = null;

  constructor(
    private readonly o: {
      probe: Probe;
      /** Service-anchored time, for "since when" on the screen. */
      now: () => number;
      failuresToOffline: number;
      onChange: (r: Reachability) => void;
    },
  ) {}

  get current(): Reachability | null {
    return this.state;
  }

  async check(): Promise<Reachability | null> {
    const r = await this.o.probe();
    if (r.ok) {
      this.failures = 0;
      if (this.state?.reachable !== true) this.set({ reachable: true, at: this.o.now(), reason: null });
    } else {
      this.failures += 1;
      if (this.failures >= this.o.failuresToOffline && this.state?.reachable !== false)
        this.set({ reachable: false, at: this.o.now(), reason: r.reason });
    }
    return this.state;
  }

  private set(r: Reachability): void {
    this.state = r;
    this.o.onChange(r);
  }
}
