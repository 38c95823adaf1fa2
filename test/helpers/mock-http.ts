import { afterEach } from 'vitest';
import { request } from 'undici';
import { startMockServer, type MockOptions, type MockServer } from '../../src/mock/mock-server.js';

/** An answer of the mock as the tests read it; `json` is undefined for a body that is not JSON. */
export type Res = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
};

/** Mocks started by a test file, each closed after its test. */
export function mockServers(): (opts?: MockOptions) => Promise<MockServer> {
  const servers: MockServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (opts) => {
    const s = await startMockServer(opts);
    servers.push(s);
    return s;
  };
}

export const basicAuth = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export type CallOpts = {
  body?: unknown;
  rawBody?: string;
  /** The token of user `public` (default demo-token); null: no Authorization header. */
  token?: string | null;
  /** The whole header, when a test needs another user or a malformed one (wins over `token`). */
  authorization?: string | null;
  /** A control route (`/__mock/...`): the origin, no Authorization header. */
  control?: boolean;
  /** The path is from the origin, not from the API base (a path outside /v2.1). */
  origin?: boolean;
  base?: string;
};

/** One request to the mock over real HTTP on loopback. */
export async function mockCall(
  srv: MockServer,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  opts: CallOpts = {},
): Promise<Res> {
  const headers: Record<string, string> = {};
  const token = opts.token === undefined ? 'demo-token' : opts.token;
  const authorization = opts.control
    ? null
    : opts.authorization !== undefined
      ? opts.authorization
      : token === null
        ? null
        : basicAuth('public', token);
  if (authorization !== null) headers.authorization = authorization;
  const body = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(`${opts.base ?? (opts.control || opts.origin ? srv.origin : srv.url)}${path}`, {
    method,
    headers,
    body,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}
