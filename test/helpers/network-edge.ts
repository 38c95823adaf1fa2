/**
 * What stands between a terminal and the service at a real site, on loopback: an HTTPS front
 * (TLS terminated, bytes passed to the mock API as they are) and an HTTP CONNECT proxy that counts
 * its tunnels, resolves names only it knows, may ask for Basic credentials, and may refuse.
 */
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import type { KeyAndCert } from './test-ca.js';

type Closer = { close(): Promise<void> };

function tracked<T extends net.Server>(server: T): { sockets: Set<net.Socket>; close: () => Promise<void> } {
  const sockets = new Set<net.Socket>();
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function listen(server: net.Server, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as net.AddressInfo).port)));
}

export type TlsFront = Closer & { port: number; handshakes: () => number };

/** TLS on a loopback port, each connection piped to `targetPort` (the mock API): the service seen over https. */
export async function startTlsFront(targetPort: number, pem: KeyAndCert & { chain?: string }): Promise<TlsFront> {
  let handshakes = 0;
  const server = tls.createServer({ key: pem.key, cert: pem.chain ? pem.cert + pem.chain : pem.cert }, (client) => {
    handshakes += 1;
    const upstream = net.connect(targetPort, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  // A client that refuses the certificate hangs up mid-handshake: not an error of the front.
  server.on('tlsClientError', () => undefined);
  const t = tracked(server);
  const port = await listen(server);
  return { port, handshakes: () => handshakes, close: t.close };
}

export type Tunnel = { target: string; authorization: string | null; status: number };

export type ConnectProxy = Closer & {
  port: number;
  url: string;
  /** Every CONNECT asked, with what the proxy answered. */
  tunnels: Tunnel[];
  /** The tunnels the proxy opened (200). */
  opened: () => number;
  /** Non-null: answer every CONNECT with this status (403: the proxy forbids the host). */
  refuse: number | null;
  /** Requests that were not CONNECT (a terminal must never send those: it tunnels). */
  plainRequests: number;
};

/**
 * `hosts`: names only this proxy resolves (name → address); other names are refused with 502.
 * `auth`: credentials the proxy requires (407 without them).
 */
export async function startConnectProxy(
  o: { hosts?: Record<string, string>; auth?: { user: string; password: string } } = {},
): Promise<ConnectProxy> {
  const expected = o.auth ? `Basic ${Buffer.from(`${o.auth.user}:${o.auth.password}`).toString('base64')}` : null;
  const server = http.createServer((req, res) => {
    proxy.plainRequests += 1;
    res.writeHead(405, { 'content-type': 'text/plain' }).end('this proxy only tunnels');
  });
  const answer = (socket: net.Socket, status: number, text: string, extra = ''): void => {
    socket.end(`HTTP/1.1 ${status} ${text}\r\n${extra}Content-Length: 0\r\nConnection: close\r\n\r\n`);
  };
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = req.url ?? '';
    const authorization =
      typeof req.headers['proxy-authorization'] === 'string' ? req.headers['proxy-authorization'] : null;
    const record = (status: number) => proxy.tunnels.push({ target, authorization, status });
    client.on('error', () => client.destroy());
    if (proxy.refuse !== null) {
      record(proxy.refuse);
      return answer(client, proxy.refuse, 'Refused');
    }
    if (expected && authorization !== expected) {
      record(407);
      return answer(client, 407, 'Proxy Authentication Required', 'Proxy-Authenticate: Basic realm="site"\r\n');
    }
    const m = /^(.+):(\d+)$/.exec(target);
    const name = (m?.[1] ?? '').replace(/^\[(.*)\]$/, '$1');
    const address = o.hosts?.[name] ?? (net.isIP(name) ? name : undefined);
    if (!m || !address) {
      record(502);
      return answer(client, 502, 'Bad Gateway');
    }
    const upstream = net.connect(Number(m[2]), address);
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      record(200);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      client.pipe(upstream).pipe(client);
    });
    upstream.on('error', () => {
      if (connected) return client.destroy();
      record(502);
      answer(client, 502, 'Bad Gateway');
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => {
      if (connected) client.destroy();
    });
  });
  const t = tracked(server);
  const port = await listen(server);
  const proxy: ConnectProxy = {
    port,
    url: `http://127.0.0.1:${port}`,
    tunnels: [],
    opened: () => proxy.tunnels.filter((x) => x.status === 200).length,
    refuse: null,
    plainRequests: 0,
    close: t.close,
  };
  return proxy;
}
