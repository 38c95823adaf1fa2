/**
 * A loopback reverse proxy in front of the mock, one per terminal of a fleet bench: the mock's log
 * does not say which terminal sent a request (they share one token), the tap does. It forwards
 * every request as it is and notes when it went and what came back (wall clock, as the mock's).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Tapped = { sentAt: number; answeredAt: number | null; method: string; path: string; status: number | null };

export type TerminalTap = { url: string; log: Tapped[]; close(): Promise<void> };

/** `target`: the mock's base URL (with its path); the tap's url keeps that path. */
export async function startTap(target: string): Promise<TerminalTap> {
  const upstream = new URL(target);
  const log: Tapped[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const server = http.createServer((req, res) => {
    const entry: Tapped = {
      sentAt: Date.now(),
      answeredAt: null,
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0] as string,
      status: null,
    };
    log.push(entry);
    const out = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
        agent,
      },
      (answer) => {
        entry.status = answer.statusCode ?? null;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => {
          entry.answeredAt = Date.now();
        });
      },
    );
    out.on('error', () => {
      entry.answeredAt = Date.now();
      res.destroy();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/$/, '')}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
