/**
 * `metrics.listen` (issue 14): Prometheus metrics and /healthz served by a real agent (real SQLite
 * file) against the real mock API, over real sockets on loopback.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import {
  isLoopbackHost,
  parseListen,
  startMetricsServer,
  type MetricsServer,
} from '../../src/agent/metrics/metrics-server.js';
import { terminalIdOf } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { DEMO_SITE_ID } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { httpGet, sample, scrape, type Sample } from '../helpers/prom-text.js';
import { fillDisk, smallDisk } from '../helpers/small-disk.js';
import { statusText } from '../../src/cli/status/format.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

type Log = Record<string, unknown>;
type Rig = { mock: MockServer; agent: Agent; server: MetricsServer; logs: Log[]; dataDir: string };

async function metricsRig(
  opts: { terminalId?: string; listen?: string; dataDir?: string; settings?: Record<string, unknown> } = {},
): Promise<Rig> {
  const mock = await startMockServer({ rateLimit: { limit: 60, windowMs: 1_000 } });
  cleanups.push(() => mock.close());
  let dataDir = opts.dataDir;
  if (!dataDir) {
    const t = tempDir();
    cleanups.push(t.cleanup);
    dataDir = t.dir;
  }
  const logs: Log[] = [];
  const terminal = terminalIdOf({ terminalId: opts.terminalId, dataDir });
  const log = createLogger({ level: 'debug', write: (l) => logs.push(JSON.parse(l) as Log), fields: { terminal } });
  const agent = testAgent({
    dataDir,
    mock,
    siteId: DEMO_SITE_ID,
    log,
    settings: { ...(opts.terminalId ? { terminalId: opts.terminalId } : {}), ...opts.settings },
  });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  const server = await startMetricsServer({ listen: opts.listen ?? '127.0.0.1:0', agent, log, processMetrics: false });
  if (!server) throw new Error(`metrics server did not start: ${JSON.stringify(logs)}`);
  cleanups.push(() => server.close());
  return { mock, agent, server, logs, dataDir };
}

/** Scrapes until `ok` holds for the samples (or fails saying `what`). */
async function scrapeUntil(origin: string, ok: (s: Sample[]) => boolean, what: string): Promise<Sample[]> {
  const end = Date.now() + 10_000;
  for (;;) {
    const s = await scrape(origin);
    if (ok(s)) return s;
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const unsent = (s: Sample[]) =>
  ['pending', 'sending', 'in_doubt'].reduce((n, state) => n + (sample(s, 'timeclock_punches', { state }) ?? NaN), 0);

describe('GET /metrics', () => {
  it('counts punches by state from pending to sent, requests by kind and status, and names build and terminal', async () => {
    // No employee's-day reads: their good answers would interleave with the failing punches below.
    const { mock, agent, server } = await metricsRig({
      terminalId: 'door-7',
      settings: { selfService: { enabled: false } },
    });
    const first = await scrape(server.origin);
    expect(sample(first, 'timeclock_punches', { state: 'pending' })).toBe(0);
    expect(sample(first, 'timeclock_punches', { state: 'sent' })).toBe(0);
    expect(sample(first, 'timeclock_roster_employees')).toBe(36);
    const syncedAt = sample(first, 'timeclock_roster_last_sync_timestamp_seconds') ?? NaN;
    expect(Math.abs(agent.status().now / 1000 - syncedAt)).toBeLessThan(60);
    expect(sample(first, 'timeclock_last_delivery_timestamp_seconds')).toBeNaN();
    expect(sample(first, 'timeclock_oldest_pending_timestamp_seconds')).toBeNaN();
    expect(sample(first, 'timeclock_unresolved_punches')).toBe(0);
    expect(sample(first, 'timeclock_disk_free_bytes')).toBeGreaterThan(0);
    expect(sample(first, 'timeclock_requests_total', { kind: 'roster', status: '200' })).toBeGreaterThanOrEqual(1);
    // The site, and the account's sites (one: the same totals with and without the filter are expected).
    expect(sample(first, 'timeclock_requests_total', { kind: 'site', status: '200' })).toBe(2);
    expect(sample(first, 'timeclock_build_info', { version: agent.status().version, terminal: 'door-7' })).toBe(1);
    expect(sample(first, 'timeclock_rate_shared', { mode: 'local' })).toBe(1); // no Redis configured: its own window
    expect(sample(first, 'timeclock_rate_limit_current')).toBe(60);
    expect(Number.isFinite(sample(first, 'timeclock_clock_skew_seconds'))).toBe(true);

    expect(sample(first, 'timeclock_online')).toBe(1);
    expect(sample(first, 'timeclock_service_state', { state: 'online' })).toBe(1);

    // The service fails every punch: it waits, and the 500s are counted. A run of them is not
    // "online" (issue 23: a minute of 503s read as online): the service answers with errors.
    mock.setFaults({ serverError: 1, only: { method: 'POST', pathPrefix: '/times' } });
    expect((await agent.punch({ kind: 'id', value: '1001' })).ok).toBe(true);
    const waiting = await scrapeUntil(
      server.origin,
      (s) => (sample(s, 'timeclock_requests_total', { kind: 'punch', status: '500' }) ?? 0) >= 3,
      'three failed sends',
    );
    expect(unsent(waiting)).toBe(1);
    expect(sample(waiting, 'timeclock_punches', { state: 'sent' })).toBe(0);
    // The punch's own time, not an age: the same value scrape after scrape while it waits.
    const taken = sample(waiting, 'timeclock_oldest_pending_timestamp_seconds') ?? NaN;
    expect(Math.abs(taken - (agent.status().now - (agent.status().oldestUnsentAgeMs ?? NaN)) / 1000)).toBeLessThan(1);
    expect(sample(waiting, 'timeclock_punches_captured_total', { outcome: 'registered' })).toBe(1);
    expect(sample(waiting, 'timeclock_rate_window_used')).toBeGreaterThan(0);
    expect(sample(waiting, 'timeclock_online')).toBe(0);
    expect(sample(waiting, 'timeclock_service_state', { state: 'errors' })).toBe(1);
    expect(sample(waiting, 'timeclock_service_state', { state: 'online' })).toBeUndefined();

    mock.setFaults(null);
    const delivered = await scrapeUntil(
      server.origin,
      (s) => sample(s, 'timeclock_punches', { state: 'sent' }) === 1,
      'the punch sent',
    );
    expect(sample(delivered, 'timeclock_online')).toBe(1);
    expect(sample(delivered, 'timeclock_service_state', { state: 'online' })).toBe(1);
    expect(unsent(delivered)).toBe(0);
    expect(sample(delivered, 'timeclock_oldest_pending_timestamp_seconds')).toBeNaN();
    const lastDelivery = sample(delivered, 'timeclock_last_delivery_timestamp_seconds') ?? NaN;
    expect(lastDelivery).toBeGreaterThanOrEqual(taken);
    expect(lastDelivery).toBeLessThanOrEqual(agent.status().now / 1000);
    expect(sample(delivered, 'timeclock_requests_total', { kind: 'punch', status: '201' })).toBe(1);
  });

  it('a token check is counted by its status; no label or value carries a name, a code or a token', async () => {
    const { agent, server, mock } = await metricsRig();
    expect((await agent.setApiToken('wrong-token-4711')).ok).toBe(false);
    expect((await agent.punch({ kind: 'id', value: '1002' })).ok).toBe(true);
    await waitFor(() => agent.status().queue.sent === 1, 'the punch sent');
    const r = await httpGet(`${server.origin}/metrics`);
    expect(r.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const s = await scrape(server.origin);
    expect(sample(s, 'timeclock_requests_total', { kind: 'token_check', status: '401' })).toBe(1);
    expect(sample(s, 'timeclock_build_info', { terminal: agent.status().terminalId })).toBe(1);
    for (const secret of [
      'wrong-token-4711',
      'demo-token',
      ...mock.employees().flatMap((e) => [e.full_name, e.cpf ?? '-']),
    ])
      expect(r.text).not.toContain(secret);
    const codes = new Set(mock.employees().flatMap((e) => [e.external_id, e._id]));
    for (const x of s) for (const v of Object.values(x.labels)) expect(codes.has(v), `${x.name} ${v}`).toBe(false);
  });

  it('HEAD works, other methods are refused and other paths are 404', async () => {
    const { server } = await metricsRig();
    expect((await httpGet(`${server.origin}/metrics`, 'HEAD')).status).toBe(200);
    expect((await httpGet(`${server.origin}/healthz`, 'HEAD')).status).toBe(200);
    expect((await httpGet(`${server.origin}/metrics`, 'POST')).status).toBe(405);
    expect((await httpGet(`${server.origin}/`)).status).toBe(404);
    expect((await httpGet(`${server.origin}/metrics/x`)).status).toBe(404);
    expect((await httpGet(`${server.origin}/status`)).status).toBe(404);
  });
});

describe('GET /healthz', () => {
  it('200 ok while punches can be saved; 503 "agent stopping" once the agent stops', async () => {
    const { agent, server } = await metricsRig();
    expect(await httpGet(`${server.origin}/healthz`)).toMatchObject({ status: 200, text: 'ok\n' });
    const stopped = agent.stop();
    expect(await httpGet(`${server.origin}/healthz`)).toMatchObject({ status: 503, text: 'agent stopping\n' });
    await stopped;
    expect(await httpGet(`${server.origin}/healthz`)).toMatchObject({ status: 503, text: 'agent stopping\n' });
    // The database is closed: no metrics, and the answer says why.
    expect(await httpGet(`${server.origin}/metrics`)).toMatchObject({ status: 503, text: 'agent stopping\n' });
  });

  it('503 "disk full" when the data directory\'s filesystem fills (a real small tmpfs), 200 again when space is back', async () => {
    const fsDir = smallDisk(cleanups);
    const { server, agent } = await metricsRig({ dataDir: path.join(fsDir, 'data') });
    expect(await httpGet(`${server.origin}/healthz`)).toMatchObject({ status: 200, text: 'ok\n' });
    const filler = path.join(fsDir, 'filler');
    fillDisk(filler);
    const full = await httpGet(`${server.origin}/healthz`);
    expect(full.status).toBe(503);
    expect(full.text).toMatch(/^disk full: \d+ KiB free for .*\n$/);
    expect(full.text.trim().split('\n')).toHaveLength(1);
    // Punches that cannot be saved are shown where the manager looks, not only in the log. A different
    // worker each time: the first may still fit in space SQLite holds (its write-ahead log is reused
    // after a checkpoint), and a repeat of that worker is then answered without a write.
    let refused = 0;
    let lastRefusedAt = 0;
    for (let i = 0; i < 30 && refused < 2; i++) {
      const before = Date.now();
      if (!(await agent.punch({ kind: 'id', value: String(1003 + i) })).ok)
        [refused, lastRefusedAt] = [refused + 1, before];
    }
    expect(refused).toBe(2);
    const st = agent.status();
    // When the last refusal happened (a busy machine may pass a millisecond before status is read).
    expect(st.storage).toMatchObject({ low: true, refused: { count: 2, why: 'the disk is full' } });
    expect(st.storage.refused?.lastAt).toBeGreaterThanOrEqual(lastRefusedAt);
    expect(st.storage.refused?.lastAt).toBeLessThanOrEqual(st.now);
    expect(statusText(st)).toMatch(/DISK LOW: +0 MB free/);
    expect(statusText(st)).toMatch(/NOT SAVED: +2 punches refused since the agent started: the disk is full/);
    const m = await scrape(server.origin);
    expect(sample(m, 'timeclock_punches_captured_total', { outcome: 'storage_failed' })).toBe(2);
    expect(sample(m, 'timeclock_disk_free_bytes')).toBeLessThan(64 * 1024);
    fs.rmSync(filler);
    expect(await httpGet(`${server.origin}/healthz`)).toMatchObject({ status: 200, text: 'ok\n' });
    // A worker the loop did not punch: a real write, not a repeat's answer.
    expect((await agent.punch({ kind: 'id', value: '1033' })).ok).toBe(true);
  });
});

describe('where it listens', () => {
  it('a port already taken: one clear error line, no server, the agent goes on', async () => {
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => taken.close(() => r())));
    const port = (taken.address() as net.AddressInfo).port;
    const { agent, logs } = await metricsRig();
    const log = createLogger({ write: (l) => logs.push(JSON.parse(l) as Log), fields: { terminal: 't' } });
    expect(await startMetricsServer({ listen: `127.0.0.1:${port}`, agent, log, processMetrics: false })).toBeNull();
    const errors = logs.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.msg).toBe(
      `metrics not served: 127.0.0.1:${port} is already in use (another program, or another terminal, listens there); the terminal runs on without metrics and /healthz`,
    );
    expect((await agent.punch({ kind: 'id', value: '1003' })).ok).toBe(true);
  });

  it('a loopback address is quiet; a non-loopback one works and is logged as reachable from the network', async () => {
    const local = await metricsRig();
    expect(local.logs.filter((l) => l.level === 'warn')).toEqual([]);
    const wide = await metricsRig({ listen: '0.0.0.0:0' });
    expect(wide.logs.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual([
      'metrics and /healthz are reachable from the network: metrics.listen is not a loopback address (as configured)',
    ]);
    expect((await httpGet(`http://127.0.0.1:${wide.server.port}/healthz`)).status).toBe(200);
  });

  it('reads host:port and knows loopback', () => {
    expect(parseListen('127.0.0.1:9464')).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseListen('[::1]:9464')).toEqual({ host: '::1', port: 9464 });
    expect(parseListen('localhost:0')).toEqual({ host: 'localhost', port: 0 });
    for (const h of ['127.0.0.1', '127.8.0.3', '::1', 'localhost']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.5', 'terminal.example', '128.0.0.1'])
      expect(isLoopbackHost(h), h).toBe(false);
  });
});

describe('terminalId', () => {
  // Log lines: test/integration/fleet-logs.test.ts, where the real CLI builds its logger.
  it('defaults to the random id kept in the data directory (issue 24: host names repeat on cloned images); a configured one replaces it', async () => {
    const plain = await metricsRig();
    const id = fs.readFileSync(path.join(plain.dataDir, 'terminal-id'), 'utf8').trim();
    expect(id).toMatch(/^tc-[a-z2-7]{8}$/);
    expect(plain.agent.status().terminalId).toBe(id);
    expect(sample(await scrape(plain.server.origin), 'timeclock_build_info', { terminal: id })).toBe(1);

    const named = await metricsRig({ terminalId: 'obra-centro-2' });
    expect(named.agent.status().terminalId).toBe('obra-centro-2');
    expect(sample(await scrape(named.server.origin), 'timeclock_build_info', { terminal: 'obra-centro-2' })).toBe(1);
  });
});
