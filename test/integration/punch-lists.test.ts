/**
 * The admin screen's punch lists over the web bridge, against a real agent that took punches (some
 * delivered, some waiting because the service answers 500): the calls are admin-only and validated;
 * the waiting list is oldest first with the service's words; an employee's day is found by any of
 * their keys or part of the name; the CSV goes to a listed drive or is served once as a download at
 * the AFD's path. The store's reads ride indexes (EXPLAIN QUERY PLAN).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { AFD_DOWNLOAD_PATH, type CallName, type CallOutput } from '../../src/contract.js';
import type { MockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { openDatabase } from '../../src/store/database.js';
import { PunchLists } from '../../src/store/punches/punch-lists.js';
import { startWebBridge, type WebBridge } from '../../src/web/web-bridge.js';
import { punchedTerminal, spInstant } from '../helpers/afd.js';
import { fakeDrive } from '../helpers/fake-drive.js';
import { tempDir, waitFor } from '../helpers/temp.js';
import { keepCookie } from '../helpers/web-bridge-rig.js';

const ADMIN_PIN = '640218';
const cleanups: Array<() => Promise<void> | void> = [];
const tmp = tempDir('timeclock-punch-lists-');
const dataDir = path.join(tmp.dir, 'data');
const stick = path.join(tmp.dir, 'media', 'kiosk', 'STICK');
const seed = demoSeed().employees;
let agent: Agent;
let mock: MockServer;
let bridge: WebBridge;

type Reply = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** The admin cookie the manager's login set, kept as the kiosk's browser keeps it. */
const jar = new Map<string, string>();

function send(o: { method?: string; path: string; headers?: Record<string, string>; body?: unknown }): Promise<Reply> {
  const u = new URL(bridge.origin);
  const headers: Record<string, string> = {
    'x-kiosk-token': bridge.token,
    ...(jar.get(bridge.origin) && o.headers?.cookie === undefined ? { cookie: jar.get(bridge.origin) ?? '' } : {}),
    ...o.headers,
  };
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        method: o.method ?? (o.body === undefined ? 'GET' : 'POST'),
        path: o.path,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          keepCookie(jar, bridge.origin, res);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        });
      },
    );
    req.on('error', reject);
    req.end(o.body === undefined ? undefined : JSON.stringify(o.body));
  });
}

const call = async <N extends CallName>(
  name: N,
  input: unknown = {},
): Promise<{ status: number; value: CallOutput<N>; error?: { code: string } }> => {
  const r = await send({ path: `/api/${name}`, body: input });
  const j = JSON.parse(r.body.toString('utf8')) as { value: CallOutput<N>; error?: { code: string } };
  return { status: r.status, value: j.value, ...(j.error ? { error: j.error } : {}) };
};
const login = async (): Promise<void> =>
  expect((await call('adminLogin', { pin: ADMIN_PIN })).value).toMatchObject({ ok: true });

beforeAll(async () => {
  const root = tmp.dir;
  const drive = fakeDrive(root, { device: '/dev/sdc1', mountPoint: stick });
  let clock: { t: number };
  ({ agent, mock, clock } = await punchedTerminal(
    dataDir,
    [
      { date: '2026-08-03', time: '08:01', id: '1001' },
      { date: '2026-08-03', time: '08:05', id: '1002' },
      { date: '2026-08-20', time: '17:30', id: '1001' },
      { date: '2026-09-01', time: '08:00', id: '1003' },
    ],
    cleanups,
    { afdDrives: drive.roots },
  ));
  await waitFor(() => agent.status().queue.sent === 4, 'the first punches delivered');
  // From now on the service fails every punch: these two wait, with its words.
  mock.setFaults({ serverError: 1, only: { method: 'POST', pathPrefix: '/times' } });
  for (const [time, id] of [
    ['09:10', '1004'],
    ['09:20', '1005'],
  ] as const) {
    clock.t = spInstant('2026-09-01', time);
    expect((await agent.punch({ kind: 'id', value: id })).ok).toBe(true);
  }
  await waitFor(
    () => agent.status().queue.pending === 2 && agent.status().lastError !== null,
    'two punches waiting after a 500',
  );
  const rendererDir = path.join(root, 'renderer');
  fs.mkdirSync(rendererDir);
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>kiosk</title>');
  bridge = await startWebBridge({
    agent,
    host: '127.0.0.1',
    port: 0,
    rendererDir,
    adminPin: { verify: async (pin) => pin === ADMIN_PIN },
  });
  cleanups.push(() => bridge.close());
});
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
  tmp.cleanup();
});

describe('punch lists on the admin screen (web bridge)', () => {
  it('are for an admin session only, and refuse wrong-shaped input', async () => {
    await call('adminLogout');
    expect((await call('listWaiting')).status).toBe(403);
    expect((await call('findPunches', { employee: '1001' })).status).toBe(403);
    expect(
      (await call('exportPunchesCsv', { from: '2026-08-01', to: '2026-08-31', target: { kind: 'download' } })).status,
    ).toBe(403);
    await login();
    for (const bad of [
      { employee: 'a' },
      { employee: '  a ' },
      { employee: '1001', date: '2026-02-30' },
      { employee: '1001', extra: 1 },
      {},
    ]) {
      expect((await call('findPunches', bad)).error?.code, JSON.stringify(bad)).toBe('bad_request');
    }
    for (const bad of [
      { from: '2026-08-31', to: '2026-08-01', target: { kind: 'download' } },
      { from: '2025-01-01', to: '2026-01-02', target: { kind: 'download' } },
      { from: '2026-08-01', to: '2026-08-31', target: { kind: 'folder', path: '/tmp' } },
      { from: '2026-08-01', to: '2026-08-31' },
    ]) {
      expect((await call('exportPunchesCsv', bad)).error?.code, JSON.stringify(bad)).toBe('bad_request');
    }
    expect((await call('listWaiting', { limit: 5 })).error?.code).toBe('bad_request');
  });

  it('lists the punches waiting, oldest first, with attempts, NSR and the service’s words', async () => {
    await login();
    const w = (await call('listWaiting')).value;
    expect(w.total).toBe(2);
    expect(w.punches.map((p) => [p.externalId, p.localDate, p.localTime, p.state])).toEqual([
      ['1004', '2026-09-01', '09:10', 'pending'],
      ['1005', '2026-09-01', '09:20', 'pending'],
    ]);
    for (const p of w.punches) {
      expect(p.attempts).toBeGreaterThanOrEqual(1);
      expect(p.lastError).toMatch(/^500\b/);
      expect(p.nsr).toBeGreaterThan(4);
      expect(p.employeeName).toBe(seed.find((e) => e.external_id === p.externalId)?.full_name);
    }
  });

  it('finds an employee’s day by external id, registration number, CPF or part of the name; says when nobody matches', async () => {
    await login();
    const ana = seed[0];
    if (!ana?.cpf) throw new Error('the demo seed changed');
    const byId = (await call('findPunches', { employee: '1001', date: '2026-08-03' })).value;
    expect(byId.employees).toEqual([{ id: ana._id, externalId: '1001', name: ana.full_name }]);
    expect(byId.punches).toHaveLength(1);
    expect(byId.punches[0]).toMatchObject({
      localDate: '2026-08-03',
      localTime: '08:01',
      state: 'sent',
      nsr: 1,
      remoteId: expect.any(String),
    });
    expect(byId.punches[0]?.sentAt).toEqual(expect.any(Number));
    const masked = `${ana.cpf.slice(0, 3)}.${ana.cpf.slice(3, 6)}.${ana.cpf.slice(6, 9)}-${ana.cpf.slice(9)}`;
    for (const q of ['M-0001', ana.cpf, masked, ana.full_name.split(' ')[0]?.toLowerCase() ?? '', ana._id]) {
      const r = (await call('findPunches', { employee: q, date: '2026-08-20' })).value;
      expect(
        r.employees.map((e) => e.id),
        q,
      ).toContain(ana._id);
      expect(
        r.punches.filter((p) => p.externalId === '1001').map((p) => p.localTime),
        q,
      ).toEqual(['17:30']);
    }
    // The site's today when no date is given; a punch still waiting says so.
    const today = (await call('findPunches', { employee: '1004' })).value;
    expect(today).toMatchObject({
      date: '2026-09-01',
      punches: [{ localTime: '09:10', state: 'pending', sentAt: null }],
    });
    const nobody = (await call('findPunches', { employee: 'zz%_nobody' })).value;
    expect(nobody).toEqual({ date: '2026-09-01', employees: [], more: false, punches: [] });
  });

  it('writes a CSV of the range to the listed drive', async () => {
    await login();
    const r = (
      await call('exportPunchesCsv', { from: '2026-08-01', to: '2026-08-31', target: { kind: 'drive', path: stick } })
    ).value;
    expect(r).toEqual({
      ok: true,
      fileName: 'punches_2026-08-01_2026-08-31.csv',
      rows: 3,
      bytes: expect.any(Number),
      where: { kind: 'drive', label: 'STICK', folder: 'PUNCHES' },
      download: null,
    });
    const text = fs.readFileSync(path.join(stick, 'PUNCHES', 'punches_2026-08-01_2026-08-31.csv'), 'utf8');
    expect(
      text.startsWith(
        '\uFEFFlocal_date,local_time,employee_external_id,employee_name,state,sent_at,nsr,service_id\r\n',
      ),
    ).toBe(true);
    expect(
      text
        .split('\r\n')
        .slice(1, -1)
        .map((l) => l.split(',').slice(0, 3).join(' ')),
    ).toEqual(['2026-08-03 08:01 1001', '2026-08-03 08:05 1002', '2026-08-20 17:30 1001']);
    const elsewhere = (
      await call('exportPunchesCsv', { from: '2026-08-01', to: '2026-08-31', target: { kind: 'drive', path: tmp.dir } })
    ).value;
    expect(elsewhere).toMatchObject({ ok: false, code: 'drive_unknown' });
  });

  it('serves the CSV once at the AFD download path, to an admin session on our page', async () => {
    await login();
    const r = (await call('exportPunchesCsv', { from: '2026-08-01', to: '2026-09-01', target: { kind: 'download' } }))
      .value;
    if (!r.ok || !r.download) throw new Error(JSON.stringify(r));
    expect(r.rows).toBe(6);
    const at = `${AFD_DOWNLOAD_PATH}${r.download}`;
    expect((await send({ path: at, headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    await call('adminLogout');
    expect((await send({ path: at })).status).toBe(403);
    await login();
    const got = await send({ path: at, headers: { 'sec-fetch-site': 'same-origin' } });
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(got.headers['content-disposition']).toBe('attachment; filename="punches_2026-08-01_2026-09-01.csv"');
    expect([...got.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(got.body.length).toBe(r.bytes);
    const lines = got.body.toString('utf8').split('\r\n');
    expect(lines).toHaveLength(1 + 6 + 1);
    expect(lines.filter((l) => l.includes(',pending,'))).toHaveLength(2);
    expect((await send({ path: at })).status).toBe(404);
  });

  it('reads through indexes, not a pass over the punches', () => {
    const db = openDatabase(dataDir);
    try {
      const lists = new PunchLists(db);
      expect(lists.rangePage('2026-08-01', '2026-08-03', null, 10).map((p) => p.local_time)).toEqual([
        '08:01',
        '08:05',
      ]);
      const plan = (sql: string, ...args: unknown[]): string =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>)
          .map((r) => r.detail)
          .join(' | ');
      const cols = 'id, captured_at';
      expect(
        plan(
          `SELECT ${cols} FROM punches INDEXED BY punches_unsent_at WHERE state IN ('pending','sending','in_doubt') ORDER BY captured_at, id LIMIT 5`,
        ),
      ).toBe(
        // a walk of the partial index: only unsent rows, already in order
        'SCAN punches USING INDEX punches_unsent_at',
      );
      expect(plan("SELECT id FROM punches WHERE state = 'held' ORDER BY captured_at, id LIMIT 5")).toMatch(
        /USING INDEX punches_(held|state)/,
      );
      const day = plan(
        'SELECT id FROM punches WHERE employee_key = ? AND utc_minute BETWEEN ? AND ? AND local_date = ? ORDER BY captured_at, id',
        'x',
        1,
        2,
        'd',
      );
      expect(day).toMatch(
        /SEARCH punches USING INDEX sqlite_autoindex_\w+ \(employee_key=\? AND utc_minute>\? AND utc_minute<\?\)/,
      );
      const range = plan(
        'SELECT id FROM punches INDEXED BY punches_captured_at WHERE captured_at BETWEEN ? AND ? AND (captured_at, id) > (?, ?) AND local_date BETWEEN ? AND ? ORDER BY captured_at, id LIMIT ?',
        1,
        2,
        1,
        0,
        'a',
        'b',
        5,
      );
      expect(range).toMatch(/SEARCH punches USING INDEX punches_captured_at/);
      expect(range).not.toMatch(/TEMP B-TREE/);
    } finally {
      db.close();
    }
  });
});
