/**
 * A site whose only way out is an HTTP proxy. The service is the real mock behind an HTTPS front
 * with a certificate from a CA made for this run; its host name (api.timeclock.test) resolves only
 * at the proxy, so a terminal that tried to go direct would fail at DNS: every success below went
 * through the proxy, and the proxy's tunnel count says how often.
 */
import dns from 'node:dns/promises';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { ApiClient } from '../../src/api/client.js';
import { networkFor } from '../../src/api/dispatcher.js';
import { apiDialectSchema } from '../../src/api/shapes.js';
import { routeProbe } from '../../src/sync/delivery/liveness.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { testAgent } from '../helpers/agent.js';
import { runCli, spawnCli, lineMatching } from '../helpers/cli.js';
import { closedPort } from '../helpers/doctor.js';
import { startConnectProxy, startTlsFront, type ConnectProxy, type TlsFront } from '../helpers/network-edge.js';
import { makeCa, type TestCa } from '../helpers/test-ca.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const HOST = 'api.timeclock.test';
let mock: MockServer;
let front: TlsFront;
let proxy: ConnectProxy;
let caFile: string;
let ca: TestCa;
let apiUrl: string;
let target: string;
const cleanups: Array<() => Promise<void> | void> = [];

function dir(): string {
  const t = tempDir('timeclock-proxy-');
  cleanups.push(t.cleanup);
  return t.dir;
}

beforeAll(async () => {
  mock = await startMockServer({ rateLimit: { limit: 600, windowMs: 1_000 } });
  ca = makeCa();
  front = await startTlsFront(Number(new URL(mock.url).port), ca.issue({ names: [HOST] }));
  proxy = await startConnectProxy({ hosts: { [HOST]: '127.0.0.1' } });
  caFile = path.join(dir(), 'site-ca.pem');
  fs.writeFileSync(caFile, ca.cert);
  apiUrl = `https://${HOST}:${front.port}/v2.1`;
  target = `${HOST}:${front.port}`;
});
afterAll(async () => {
  await proxy.close();
  await front.close();
  await mock.close();
  for (const c of cleanups.reverse()) await c();
});

const env = (dataDir: string, extra: Record<string, string> = {}): Record<string, string> => ({
  TIMECLOCK_API_URL: apiUrl,
  TIMECLOCK_API_TOKEN: 'demo-token',
  TIMECLOCK_API_CA_FILE: caFile,
  TIMECLOCK_DATA_DIR: dataDir,
  TIMECLOCK_LOG_LEVEL: 'error',
  ...extra,
});

describe('a site whose only way out is an HTTP proxy', () => {
  it('the API host cannot be reached without the proxy (the proof that what works went through it)', async () => {
    await expect(dns.lookup(HOST)).rejects.toMatchObject({
      code: expect.stringMatching(/ENOTFOUND|EAI_AGAIN|ESERVFAIL/),
    });
  });

  it('with HTTPS_PROXY set, the roster syncs and a punch is delivered, every request through CONNECT tunnels', async () => {
    const d = dir();
    const before = proxy.opened();
    const requests = mock.requests().length;
    const roster = await runCli(['roster', 'sync'], env(d, { HTTPS_PROXY: proxy.url }));
    expect(roster.stdout).toMatch(/roster: 36 employees/);
    const punched = await runCli(['start', '--headless'], env(d, { HTTPS_PROXY: proxy.url }), '1001\n', 30_000);
    expect(punched.stdout).toMatch(/^registered Ana Paula/m);
    const flushed = await runCli(['flush'], env(d, { HTTPS_PROXY: proxy.url }));
    expect(flushed.stdout).toMatch(/queue empty \(sent 1,/);
    expect(flushed.code).toBe(0);
    expect(mock.records().filter((r) => r.employee_external_id === '1001')).toHaveLength(1);
    expect(
      mock
        .requests()
        .slice(requests)
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual(expect.arrayContaining(['GET /v2.1/employees', 'POST /v2.1/times']));
    // One tunnel per connection, at least one per process; all to the API's host and port; never a plain proxied
    // request.
    expect(proxy.opened() - before).toBeGreaterThanOrEqual(3);
    expect(new Set(proxy.tunnels.map((t) => t.target))).toEqual(new Set([target]));
    expect(proxy.plainRequests).toBe(0);
  });

  it('NO_PROXY naming the API host bypasses the proxy: the terminal goes direct (and here, DNS fails)', async () => {
    const d = dir();
    const before = proxy.tunnels.length;
    const res = await runCli(
      ['roster', 'sync'],
      env(d, { HTTPS_PROXY: proxy.url, NO_PROXY: 'localhost,.timeclock.test' }),
    );
    expect(res.code).not.toBe(0);
    expect(res.stdout + res.stderr).toMatch(new RegExp(`(ENOTFOUND|EAI_AGAIN)[^\\n]*${HOST.replace(/\./g, '\\.')}`));
    expect(res.stdout + res.stderr).not.toMatch(/via proxy/);
    expect(proxy.tunnels.length).toBe(before);
  });

  it('a loopback API is reached directly even with proxy variables set (the demo, a local gateway)', async () => {
    const refusing = await startConnectProxy();
    refusing.refuse = 403;
    cleanups.push(() => refusing.close());
    const res = await runCli(['roster', 'sync'], {
      TIMECLOCK_API_URL: mock.url,
      TIMECLOCK_API_TOKEN: 'demo-token',
      TIMECLOCK_DATA_DIR: dir(),
      HTTPS_PROXY: refusing.url,
      HTTP_PROXY: refusing.url,
    });
    expect(res.stdout).toMatch(/roster: 36 employees/);
    expect(refusing.tunnels).toEqual([]);
  });
});

describe('the doctor and a proxy that is not there', () => {
  it('names the proxy (from HTTPS_PROXY) as unreachable, and the service check points at it', async () => {
    const gone = await closedPort();
    const res = await runCli(['doctor', '--json'], env(dir(), { HTTPS_PROXY: `http://127.0.0.1:${gone}` }));
    const c = Object.fromEntries(
      (JSON.parse(res.stdout) as Array<{ check: string; status: string; detail: string }>).map((l) => [l.check, l]),
    );
    expect(c['proxy']).toEqual({
      check: 'proxy',
      status: 'fail',
      detail: `proxy http://127.0.0.1:${gone} unreachable (ECONNREFUSED): check the proxy's address in HTTPS_PROXY, and that this machine may reach it`,
    });
    expect(c['service']?.status).toBe('fail');
    expect(c['service']?.detail).toMatch(
      new RegExp(
        `^unreachable \\(ECONNREFUSED.*via proxy http://127\\.0\\.0\\.1:${gone}\\): check the proxy line above, then api\\.baseUrl$`,
      ),
    );
    expect(res.code).toBe(1);
  });
});

describe('a proxy that asks for credentials', () => {
  const PASSWORD = 'S3cret-Proxy-Pw';
  const secrets = [PASSWORD, encodeURIComponent(PASSWORD), Buffer.from(`site-user:${PASSWORD}`).toString('base64')];
  let authed: ConnectProxy;
  beforeAll(async () => {
    authed = await startConnectProxy({
      hosts: { [HOST]: '127.0.0.1' },
      auth: { user: 'site-user', password: PASSWORD },
    });
    cleanups.push(() => authed.close());
  });

  it('works with api.proxy carrying user:password, and the password is in no output, log, status, doctor line or child environment', async () => {
    const d = dir();
    const shown = `http://***@127.0.0.1:${authed.port}`;
    const config = path.join(d, 'config.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        api: {
          baseUrl: apiUrl,
          token: 'demo-token',
          caFile,
          proxy: `http://site-user:${PASSWORD}@127.0.0.1:${authed.port}`,
        },
      }),
    );
    // The environment's proxy loses to api.proxy: it is a refusing one.
    const envProxy = await startConnectProxy();
    envProxy.refuse = 403;
    cleanups.push(() => envProxy.close());
    const e = { TIMECLOCK_DATA_DIR: path.join(d, 'data'), TIMECLOCK_LOG_LEVEL: 'debug', HTTPS_PROXY: envProxy.url };
    const outputs: string[] = [];
    const run = async (args: string[], input = '') => {
      const r = await runCli([...args, '--config', config], e, input, 30_000);
      outputs.push(r.stdout, r.stderr);
      return r;
    };
    expect((await run(['roster', 'sync'])).stdout).toMatch(/roster: 36 employees/);
    expect((await run(['start', '--headless'], '1002\n')).stdout).toMatch(/^registered/m);
    expect((await run(['flush'])).code).toBe(0);
    const status = await run(['status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ queue: { sent: 1 } });
    await run(['status']);
    const doctor = await run(['doctor']);
    expect(doctor.stdout).toMatch(
      new RegExp(
        `^ok +proxy: ${shown.replace(/[.*]/g, '\\$&')} \\(from api\\.proxy\\): CONNECT ${target} accepted$`,
        'm',
      ),
    );
    await run(['doctor', '--json']);
    // The proxy saw the credentials; nothing else did.
    expect(authed.opened()).toBeGreaterThanOrEqual(3);
    expect(authed.tunnels.every((t) => t.authorization === `Basic ${secrets[2]}`)).toBe(true);
    expect(envProxy.tunnels).toEqual([]);
    expect(outputs.join('\n')).toMatch(/the way to the service/); // the debug log says which way, masked
    for (const s of secrets) expect(outputs.join('\n')).not.toContain(s);

    // A browser the terminal starts (the kiosk screen) inherits no proxy credentials.
    const envFile = path.join(d, 'browser-env.json');
    const exe = path.join(d, 'fake-browser');
    fs.writeFileSync(
      exe,
      `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(envFile)}, JSON.stringify(process.env));\nsetInterval(() => {}, 1000);\n`,
      { mode: 0o755 },
    );
    const child = spawnCli(['start', '--headless', '--browser', exe, '--config', config], {
      ...e,
      TIMECLOCK_API_PROXY: `http://site-user:${PASSWORD}@127.0.0.1:${authed.port}`,
      HTTPS_PROXY: `http://site-user:${PASSWORD}@127.0.0.1:${authed.port}`,
    });
    try {
      child.stdout.resume();
      await lineMatching(child.stderr, /kiosk screen: http/);
      await waitFor(() => fs.existsSync(envFile) && fs.statSync(envFile).size > 0, 'the browser started');
      const seen = fs.readFileSync(envFile, 'utf8');
      expect(seen).toContain('TIMECLOCK_DATA_DIR'); // it did get an environment
      for (const s of secrets) expect(seen).not.toContain(s);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('wrong credentials: the doctor names the proxy and its 407, never the password', async () => {
    const d = dir();
    const wrong = `http://site-user:not-${PASSWORD}@127.0.0.1:${authed.port}`;
    const res = await runCli(['doctor'], env(d, { TIMECLOCK_API_PROXY: wrong }));
    expect(res.code).toBe(1);
    const proxyLine = res.stdout.split('\n').find((l) => / proxy: /.test(l)) ?? '';
    expect(proxyLine).toMatch(
      new RegExp(
        `^fail +proxy: http://\\*\\*\\*@127\\.0\\.0\\.1:${authed.port} \\(from api\\.proxy\\): refused CONNECT ${target} \\(407: the proxy wants credentials`,
      ),
    );
    expect(res.stdout).toMatch(/^fail +service: unreachable through the proxy/m);
    expect(res.stdout + res.stderr).not.toContain(`not-${PASSWORD}`);
    expect(res.stdout + res.stderr).not.toContain(PASSWORD);
  });
});

describe('liveness through the proxy', () => {
  let agent: Agent;
  let live: ConnectProxy;
  beforeAll(async () => {
    live = await startConnectProxy({ hosts: { [HOST]: '127.0.0.1' } });
    cleanups.push(() => live.close());
  });

  it('the idle screen turns offline when the proxy refuses CONNECT, naming the proxy, and online again when it allows it; liveness spends no API request', async () => {
    agent = testAgent({
      dataDir: dir(),
      mock: { url: apiUrl },
      settings: {
        api: { baseUrl: apiUrl, token: 'demo-token', timeoutMs: 1_000, proxy: live.url, caFile, livenessEveryMs: 200 },
      },
    });
    cleanups.push(() => agent.stop());
    await agent.start({ awaitRosterIfEmpty: true });
    // The workers' employers are read after the roster (issue 26): done before the requests are counted.
    await agent.employersRead();
    await waitFor(() => agent.status().online === true, 'online after the roster sync');
    await waitFor(() => live.tunnels.length >= 3, 'liveness tunnels through the proxy');
    const requests = mock.requests().length;

    live.refuse = 403;
    await waitFor(() => agent.status().online === false, 'offline once the proxy refuses the tunnel', 10_000);
    expect(agent.status().lastError?.message).toMatch(
      new RegExp(`proxy http://127\\.0\\.0\\.1:${live.port} refused CONNECT ${target} \\(403`),
    );
    live.refuse = null;
    await waitFor(() => agent.status().online === true, 'online again once the proxy allows it', 10_000);
    // The tunnels cost nothing; the host's return is confirmed by one cheap read (the uploader's
    // probe: online means the service answers), and that is all.
    const after = mock.requests().slice(requests);
    expect(after.length).toBeLessThanOrEqual(1);
    for (const r of after) expect(`${r.method} ${r.path} ${r.query['max_results']}`).toBe('GET /v2.1/employees 1');
    expect(new Set(live.tunnels.map((t) => t.target))).toEqual(new Set([target]));
  });
});

describe('the client through the proxy keeps its connection settings', () => {
  it('an answer that never comes is given up after api.timeoutMs; a POST that went out is in doubt, a GET just failed', async () => {
    // A service that takes the request and never answers, reachable only through the proxy.
    const silent = net.createServer((socket) => socket.on('data', () => undefined));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => silent.close(() => r())));
    const port = (silent.address() as net.AddressInfo).port;
    const quiet = await startConnectProxy({ hosts: { 'silent.timeclock.test': '127.0.0.1' } });
    cleanups.push(() => quiet.close());
    const baseUrl = `http://silent.timeclock.test:${port}/v2.1`;
    const client = new ApiClient({
      baseUrl,
      token: 'demo-token',
      timeoutMs: 400,
      dialect: apiDialectSchema.parse({}),
      network: networkFor(baseUrl, { proxy: quiet.url }, {}),
    });
    cleanups.push(() => client.close());
    const started = Date.now();
    const post = await client.postTime({ kind: 'external_id', value: '1001' }, '2026-11-28', '08:00');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(post).toEqual({
      kind: 'unknown',
      error: expect.stringMatching(
        new RegExp(`UND_ERR_HEADERS_TIMEOUT.*via proxy http://127\\.0\\.0\\.1:${quiet.port}`),
      ),
    });
    const get = await client.probe();
    expect(get).toMatchObject({ kind: 'not_sent', error: expect.stringMatching(/UND_ERR_HEADERS_TIMEOUT/) });
    expect(quiet.opened()).toBeGreaterThanOrEqual(1);
  });

  it('an https:// proxy whose certificate is from the site CA: api.caFile is trusted for the proxy too (requests and liveness)', async () => {
    const inner = await startConnectProxy({ hosts: { [HOST]: '127.0.0.1' } });
    const tlsProxy = await startTlsFront(inner.port, ca.issue({ names: ['localhost'], ips: ['127.0.0.1'] }));
    cleanups.push(
      () => inner.close(),
      () => tlsProxy.close(),
    );
    const proxyUrl = `https://localhost:${tlsProxy.port}`;
    const roster = await runCli(['roster', 'sync'], env(dir(), { HTTPS_PROXY: proxyUrl }));
    expect(roster.stdout).toMatch(/roster: 36 employees/);
    expect(
      await routeProbe(
        apiUrl,
        networkFor(apiUrl, { caFile }, { https: { value: proxyUrl, from: 'HTTPS_PROXY' } }),
        1_000,
      )(),
    ).toEqual({ ok: true });
    // Without the CA file the proxy's own certificate is refused, before any tunnel.
    const opened = inner.opened();
    const refused = await routeProbe(
      apiUrl,
      networkFor(apiUrl, {}, { https: { value: proxyUrl, from: 'HTTPS_PROXY' } }),
      1_000,
    )();
    expect(refused).toEqual({
      ok: false,
      reason: `proxy ${proxyUrl} unreachable (its certificate was refused: UNABLE_TO_VERIFY_LEAF_SIGNATURE, untrusted issuer: set api.caFile to the CA's PEM)`,
    });
    expect(inner.opened()).toBe(opened);
    expect(tlsProxy.handshakes()).toBeGreaterThanOrEqual(2);
  });
});
