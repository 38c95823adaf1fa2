/**
 * The admin screen's AFD export over the web bridge, against a real agent that took punches: the
 * calls are admin-only and validated; a drive must be one the agent listed (a fake /proc/mounts and
 * /sys whose mount point is a real directory); a download is served once, by its id, to the page
 * with the session token and an open admin session, as an attachment, never to another origin.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AfdAdmin } from '../../src/agent/exports/afd-admin.js';
import type { Agent } from '../../src/agent/facade/agent.js';
import { configSchema } from '../../src/config.js';
import { AFD_DOWNLOAD_PATH, type CallName, type CallOutput } from '../../src/contract.js';
import { verifyAfd } from '../../src/domain/afd/verify.js';
import { silentLogger } from '../../src/log.js';
import { AuditLog } from '../../src/store/roster/audit-log.js';
import { openDatabase } from '../../src/store/database.js';
import { sha256Latin1 } from '../../src/store/journal/journal-facts.js';
import { startWebBridge, type WebBridge } from '../../src/web/web-bridge.js';
import { punchedTerminal, TERMINAL_NAME as ANNEX_NAME } from '../helpers/afd.js';
import { fakeDrive } from '../helpers/fake-drive.js';
import { tempDir, waitFor } from '../helpers/temp.js';
import { keepCookie } from '../helpers/web-bridge-rig.js';

const ADMIN_PIN = '731904';
const cleanups: Array<() => Promise<void> | void> = [];
const tmp = tempDir('timeclock-afd-bridge-');
const dataDir = path.join(tmp.dir, 'data');
const stick = path.join(tmp.dir, 'media', 'kiosk', 'PENDRIVE');
let agent: Agent;
let bridge: WebBridge;

type Reply = {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json(): { ok: boolean; value?: never; error?: { code: string; message: string } };
};

/** The admin cookie the manager's login set, kept as the kiosk's browser keeps it. */
const jar = new Map<string, string>();

function send(o: {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  token?: string | null;
}): Promise<Reply> {
  const u = new URL(bridge.origin);
  const headers: Record<string, string> = {
    ...(o.token === null ? {} : { 'x-kiosk-token': o.token ?? bridge.token }),
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
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: () => JSON.parse(body.toString('utf8')) as ReturnType<Reply['json']>,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(o.body === undefined ? undefined : JSON.stringify(o.body));
  });
}

/** A call by name with any input (wrong ones included); the value typed as the contract says. */
const call = async <N extends CallName>(
  name: N,
  input: unknown = {},
): Promise<{ status: number; value: CallOutput<N> | undefined; error?: { code: string; message: string } }> => {
  const r = await send({ path: `/api/${name}`, body: input });
  const j = r.json() as { value?: CallOutput<N>; error?: { code: string; message: string } };
  return { status: r.status, value: j.value, ...(j.error ? { error: j.error } : {}) };
};
const exported = (v: CallOutput<'exportAfd'> | undefined): Extract<CallOutput<'exportAfd'>, { ok: true }> => {
  if (!v?.ok) throw new Error(`the export failed: ${JSON.stringify(v)}`);
  return v;
};
const login = async (): Promise<void> =>
  expect((await call('adminLogin', { pin: ADMIN_PIN })).value).toMatchObject({ ok: true });

beforeAll(async () => {
  const root = tmp.dir;
  const drive = fakeDrive(root, { mountPoint: stick });
  ({ agent } = await punchedTerminal(
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

describe('AFD export from the admin screen (web bridge)', () => {
  it('is for an admin session only; lists the drive; refuses dates out of order and a path it did not list', async () => {
    expect((await call('afdTargets')).status).toBe(403);
    expect(
      (await call('exportAfd', { from: '2026-08-01', to: '2026-08-31', target: { kind: 'download' } })).status,
    ).toBe(403);
    await login();
    const targets = await call('afdTargets');
    expect(targets.value).toMatchObject({
      today: '2026-09-01',
      missing: [],
      signed: false,
      drives: [{ path: stick, label: 'PENDRIVE', readOnly: false }],
    });
    for (const bad of [
      { from: '2026-08-31', to: '2026-08-01', target: { kind: 'download' } },
      { from: '2026-02-30', to: '2026-03-01', target: { kind: 'download' } },
      { from: '2020-01-01', to: '2026-01-01', target: { kind: 'download' } },
      { from: '2026-08-01', to: '2026-08-31', target: { kind: 'folder', path: '/tmp' } },
    ]) {
      expect((await call('exportAfd', bad)).error?.code).toBe('bad_request');
    }
    const elsewhere = await call('exportAfd', {
      from: '2026-08-01',
      to: '2026-08-31',
      target: { kind: 'drive', path: tmp.dir },
    });
    expect(elsewhere.value).toMatchObject({ ok: false, code: 'drive_unknown' });
    expect(fs.readdirSync(tmp.dir).some((f) => f.startsWith('AFD'))).toBe(false);
  });

  it('writes to the drive, in a folder for the period, under the Annex name', async () => {
    await login();
    const r = await call('exportAfd', { from: '2026-08-01', to: '2026-08-31', target: { kind: 'drive', path: stick } });
    const value = exported(r.value);
    expect(value).toMatchObject({
      ok: true,
      fileName: ANNEX_NAME,
      marks: 3,
      firstNsr: 1,
      lastNsr: 3,
      signed: false,
      where: { kind: 'drive', label: 'PENDRIVE', folder: 'AFD_2026-08-01_2026-08-31' },
      downloads: null,
    });
    const text = fs.readFileSync(path.join(stick, 'AFD_2026-08-01_2026-08-31', ANNEX_NAME), 'latin1');
    expect(verifyAfd(text, sha256Latin1)).toMatchObject({ ok: true, counts: { 7: 3 }, signature: 'unsigned' });
    expect(Buffer.byteLength(text, 'latin1')).toBe(value.bytes);
  });

  it('serves a download once, by its id, to the page with the token and an admin session; never to another origin', async () => {
    await login();
    const r = await call('exportAfd', { from: '2026-08-01', to: '2026-09-01', target: { kind: 'download' } });
    const value = exported(r.value);
    expect(value).toMatchObject({
      ok: true,
      marks: 4,
      where: { kind: 'download' },
      downloads: { file: expect.stringMatching(/^[0-9a-f]{32}$/), p7s: null },
    });
    const at = `${AFD_DOWNLOAD_PATH}${value.downloads?.file ?? ''}`;
    expect((await send({ path: at, token: null })).status).toBe(401);
    expect((await send({ path: at, token: 'f'.repeat(64) })).status).toBe(401);
    expect((await send({ path: at, headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect((await send({ path: at, headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await send({ path: at, headers: { host: 'evil.example' } })).status).toBe(403);
    expect((await send({ path: at, method: 'POST' })).status).toBe(405);
    // Another client with the page token but not the manager's admin cookie (issue 25): refused, and the download is
    // still there.
    expect((await send({ path: at, headers: { cookie: '' } })).status).toBe(403);
    expect((await send({ path: at, headers: { cookie: `kiosk-admin=${'a'.repeat(64)}` } })).status).toBe(403);
    expect((await send({ path: `${AFD_DOWNLOAD_PATH}${'0'.repeat(32)}` })).status).toBe(404);
    await call('adminLogout');
    const noSession = await send({ path: at });
    expect(noSession.status).toBe(403);
    expect(noSession.json().error?.message).toBe('admin session required');

    await login();
    const got = await send({ path: at, headers: { 'sec-fetch-site': 'same-origin' } });
    expect(got.status).toBe(200);
    expect(got.headers['content-disposition']).toBe(`attachment; filename="${ANNEX_NAME}"`);
    expect(got.headers['content-type']).toBe('text/plain; charset=iso-8859-1');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['cache-control']).toBe('no-store');
    expect(verifyAfd(got.body.toString('latin1'), sha256Latin1)).toMatchObject({ ok: true, counts: { 7: 4 } });
    expect(got.body.length).toBe(value.bytes);

    expect((await send({ path: at })).status).toBe(404);
    // The copy kept for the download is gone once served.
    await waitFor(() => fs.readdirSync(path.join(dataDir, 'afd-downloads')).length === 0, 'the served file deleted');
  });

  it('says what the configuration lacks, and refuses the export naming those keys', async () => {
    const db = openDatabase(dataDir);
    cleanups.push(() => void db.close());
    const admin = new AfdAdmin({
      db,
      config: configSchema.parse({ dataDir: path.join(tmp.dir, 'other') }),
      clock: { now: () => Date.parse('2026-09-01T12:00:00Z') },
      log: silentLogger,
      audit: new AuditLog(db),
    });
    expect((await admin.targets()).missing).toEqual(['employer.name', 'employer.cnpj (or employer.cpf)']);
    expect(await admin.export({ from: '2026-08-01', to: '2026-08-31', target: { kind: 'download' } })).toMatchObject({
      ok: false,
      code: 'employer_missing',
      params: { keys: 'employer.name, employer.cnpj (or employer.cpf)' },
    });
  });
});
