/**
 * The admin screen's settings calls against a real agent (real SQLite, real mock API on loopback):
 * a new API token, another site, another request budget — each checked, saved, in force at once,
 * kept across a restart, and undone by `timeclock settings reset`. The token never appears in an
 * answer, event, status, log line or audit entry.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/agent.js';
import type { TokenStore } from '../../src/agent/token-store.js';
import { callResultSchema } from '../../src/contract.js';
import { maxInAnyWindow } from '../../src/domain/sliding-window.js';
import { createLogger } from '../../src/log.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { DEMO_PAYMENT_SOURCE_ID, DEMO_SITE_ID, DEMO_WORK_SCHEDULE_ID, demoSeed, objectIdFor, type MockSeed } from '../../src/mock/seed.js';
import { AuditLog } from '../../src/store/audit-log.js';
import { openDatabase } from '../../src/store/database.js';
import { TOKEN_FILE_NAME } from '../../src/store/private-file.js';
import { startWebBridge, type WebBridge } from '../../src/web/web-bridge.js';
import { testAgent, type TestAgentOptions } from '../helpers/agent.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const OLD_TOKEN = 'old-token-5e1d0c9b8a7f6e5d';
const NEW_TOKEN = 'new-token-a1b2c3d4e5f60718';
const WRONG_TOKEN = 'wrong-token-99f1e2d3c4b5a6';
const SECRETS = [OLD_TOKEN, NEW_TOKEN, WRONG_TOKEN];
const ADMIN_PIN = '582913';
const OTHER_SITE = objectIdFor('other-site', 1);

const cleanups: Array<() => Promise<void> | void> = [];
/** Answers, events, status and log lines of a test: none may hold a token. */
const seen: string[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
  for (const s of seen) for (const secret of SECRETS) expect(s).not.toContain(secret);
  // The answers' params (what the screen words its text with) hold neither a token nor a PIN.
  for (const v of seen.flatMap(paramValues)) for (const secret of [...SECRETS, ADMIN_PIN]) expect(v).not.toContain(secret);
  seen.length = 0;
});

/** Every value of a `params` object in a JSON text (an admin call's answer), however deep. */
function paramValues(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const out: string[] = [];
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x !== null && typeof x === 'object') {
      for (const [k, v] of Object.entries(x)) {
        if (k === 'params' && v !== null && typeof v === 'object') out.push(...Object.values(v).map(String));
        walk(v);
      }
    }
  };
  walk(parsed);
  return out;
}

/** An answer made in the test, kept for the checks after it. */
function kept<T>(r: T): T {
  seen.push(JSON.stringify(r));
  return r;
}

const log = createLogger({ level: 'debug', write: (l) => seen.push(l) });

/** The demo account plus a second site (Manaus) with five employees of its own. */
function twoSiteSeed(): MockSeed {
  const seed = demoSeed();
  seed.sites.push({ _id: OTHER_SITE, name: 'Obra Norte — Manaus', timezone: 'America/Manaus', city: 'Manaus', state: 'AM' });
  for (let i = 0; i < 5; i++) {
    seed.employees.push({
      _id: objectIdFor('other-employee', i),
      external_id: String(2001 + i),
      full_name: `Empregado Norte ${i + 1}`,
      timezone: 'America/Manaus',
      work_schedule: DEMO_WORK_SCHEDULE_ID,
      contract_data: { registration_number: `N-${i + 1}`, payment_source: DEMO_PAYMENT_SOURCE_ID },
      active: true,
      site_ids: [OTHER_SITE],
    });
  }
  return seed;
}

async function mockWith(tokens: string[]): Promise<MockServer> {
  const mock = await startMockServer({ seed: twoSiteSeed(), tokens, rateLimit: { limit: 60, windowMs: 1_000 } });
  cleanups.push(() => mock.close());
  return mock;
}

function data(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

async function started(o: TestAgentOptions): Promise<Agent> {
  const agent = testAgent({ log, ...o });
  cleanups.push(() => agent.stop());
  agent.on('status', (s) => seen.push(JSON.stringify(s)));
  agent.on('punch', (p) => seen.push(JSON.stringify(p)));
  await agent.start({ awaitRosterIfEmpty: true });
  return agent;
}

function auditOf(dataDir: string) {
  const db = openDatabase(dataDir);
  try {
    const entries = new AuditLog(db).recent(50);
    seen.push(JSON.stringify(entries));
    return entries;
  } finally {
    db.close();
  }
}

/** The web bridge in front of `agent`, logged in as admin; `call` returns the parsed answer. */
async function bridgeFor(agent: Agent): Promise<{ bridge: WebBridge; call(name: string, body: unknown): Promise<unknown> }> {
  const root = path.join(data(), 'renderer');
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>kiosk</title>');
  const bridge = await startWebBridge({ agent, host: '127.0.0.1', port: 0, rendererDir: root, adminPin: { verify: async (p) => p === ADMIN_PIN }, log });
  cleanups.push(() => bridge.close());
  const call = async (name: string, body: unknown): Promise<unknown> => {
    const res = await fetch(`${bridge.origin}/api/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-kiosk-token': bridge.token },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    // The request carried the token; the answer must not.
    seen.push(text);
    return JSON.parse(text);
  };
  expect(await call('adminLogin', { pin: ADMIN_PIN })).toMatchObject({ ok: true, value: { ok: true } });
  return { bridge, call };
}

describe('setApiToken', () => {
  it('punches captured while the token was refused are delivered with the new one, which a restart keeps', async () => {
    const mock = await mockWith([OLD_TOKEN]);
    const dir = data();
    const agent = await started({ dataDir: dir, mock, token: OLD_TOKEN, retry: { authRetryMs: 60_000 } });
    const { call } = await bridgeFor(agent);
    expect(agent.status().settings.token).toEqual({ source: 'config', setAt: null, warning: null });

    // The service revokes the old token and issues a new one (through the mock's control endpoint).
    const put = await fetch(`${mock.origin}/__mock/tokens`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify([NEW_TOKEN]) });
    expect(put.status).toBe(200);
    for (const id of ['1001', '1002', '1003']) expect((await agent.punch({ kind: 'id', value: id })).ok).toBe(true);
    await waitFor(() => agent.status().authRefused !== null, 'the token refusal');
    expect(agent.status().sendingPaused?.reason).toBe('auth');

    // A wrong token is checked with the service and refused: nothing saved, nothing changed.
    const wrong = callResultSchema('setApiToken').parse(await call('setApiToken', { token: WRONG_TOKEN }));
    expect(wrong).toMatchObject({ ok: true, value: { ok: false, code: 'token_refused', params: { reason: expect.any(String) } } });
    expect(fs.existsSync(path.join(dir, TOKEN_FILE_NAME))).toBe(false);
    expect(agent.status().settings.token.source).toBe('config');
    // Malformed input: a clear refusal before anything is sent.
    expect(await call('setApiToken', { token: 'has a space' })).toMatchObject({ ok: true, value: { ok: false, code: 'token_invalid', params: { max: '512' } } });
    expect(await call('setApiToken', { token: '' })).toMatchObject({ ok: false, error: { code: 'bad_request' } });

    const t0 = Date.now();
    const r = callResultSchema('setApiToken').parse(await call('setApiToken', { token: NEW_TOKEN }));
    expect(r).toMatchObject({ ok: true, value: { ok: true, code: 'token_saved', params: { store: 'file' } } });
    // authRetryMs is a minute: only the wake-up after the new token can deliver this fast.
    await waitFor(() => mock.records().length === 3, 'the three punches at the service', 5_000);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(mock.records().every((x) => x.token === NEW_TOKEN)).toBe(true);
    const st = callResultSchema('status').parse(await call('status', {}));
    expect(st.ok && st.value.settings.token).toEqual({ source: 'file', setAt: expect.any(Number), warning: null });
    expect(st.ok && st.value.authRefused).toBeNull();
    expect(fs.statSync(path.join(dir, TOKEN_FILE_NAME)).mode & 0o777).toBe(0o600);
    const audit = auditOf(dir).filter((e) => e.event === 'api_token_set');
    expect(audit).toHaveLength(1);
    expect(audit[0]?.detail).toMatch(/admin screen.*accepted by the service/);

    // Restarted with the old token still in the configuration: the saved one wins.
    await agent.stop();
    const again = await started({ dataDir: dir, mock, token: OLD_TOKEN });
    expect(again.status().settings.token.source).toBe('file');
    expect((await again.punch({ kind: 'id', value: '1004' })).ok).toBe(true);
    await waitFor(() => mock.records().length === 4, 'the punch after the restart');
  });

  it('a save that fails (the file cannot be written) answers ok:false and changes nothing', async () => {
    const mock = await mockWith([OLD_TOKEN, NEW_TOKEN]);
    const dir = data();
    const agent = await started({ dataDir: dir, mock, token: OLD_TOKEN });
    fs.mkdirSync(path.join(dir, TOKEN_FILE_NAME)); // a directory where the file would go
    const r = kept(await agent.setApiToken(NEW_TOKEN));
    expect(r).toMatchObject({ ok: false, code: 'token_save_failed', params: { error: expect.any(String) } });
    expect(agent.status().settings.token.source).toBe('config');
    expect(auditOf(dir).some((e) => e.event === 'api_token_set')).toBe(false);
    await agent.punch({ kind: 'id', value: '1005' });
    await waitFor(() => mock.records().length === 1, 'the punch');
    expect(mock.records()[0]?.token).toBe(OLD_TOKEN);
  });

  it('a store that fails to save (secret store gone) leaves the token in use', async () => {
    const mock = await mockWith([OLD_TOKEN, NEW_TOKEN]);
    const broken: TokenStore = {
      source: 'keyring',
      warning: null,
      load: () => null,
      save: () => {
        throw new Error('the system secret store could not encrypt the token (locked)');
      },
      clear: () => {},
    };
    const agent = await started({ dataDir: data(), mock, token: OLD_TOKEN, tokens: broken });
    const r = kept(await agent.setApiToken(NEW_TOKEN));
    expect(r).toMatchObject({ ok: false, code: 'token_save_failed', params: { error: expect.stringMatching(/^the system secret store could not encrypt/) } });
    expect(r.params?.['error']).toMatch(/could not encrypt the token \(locked\)/);
    expect(agent.status().settings.token).toEqual({ source: 'config', setAt: null, warning: null });
  });

  it('in demo mode a token is refused with the reason, and nothing set in the demo reaches a real configuration', async () => {
    const mock = await mockWith(['demo-token']);
    const dir = data();
    const demo = await started({ dataDir: dir, mock, token: 'demo-token', demo: true });
    const r = kept(await demo.setApiToken(NEW_TOKEN));
    expect(r).toMatchObject({ ok: false, code: 'token_demo' });
    expect(r.params).toBeUndefined();
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('api-token'))).toEqual([]);
    expect(await demo.setRateBudget(10, 2_000)).toMatchObject({ ok: true });
    expect(demo.status().settings.rateLimit).toEqual({ limit: 10, windowMs: 2_000 });
    await demo.stop();
    // The same data directory under a real configuration: the demo's budget does not apply.
    const real = await started({ dataDir: dir, mock, token: 'demo-token' });
    expect(real.status().settings.rateLimit).toEqual({ limit: 60, windowMs: 1_000 });
    // And a token saved for real is not used by a demo on that directory.
    fs.writeFileSync(path.join(dir, TOKEN_FILE_NAME), NEW_TOKEN, { mode: 0o600 });
    await real.stop();
    const demo2 = await started({ dataDir: dir, mock, token: 'demo-token', demo: true });
    expect(demo2.status().settings.token.source).toBe('config');
    expect(demo2.status().settings.rateLimit).toEqual({ limit: 10, windowMs: 2_000 });
  });

  it('a saved token file others can read is not used: the configured token is, and the status says why', async () => {
    const mock = await mockWith([OLD_TOKEN]);
    const dir = data();
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, TOKEN_FILE_NAME);
    fs.writeFileSync(file, NEW_TOKEN);
    fs.chmodSync(file, 0o644);
    const agent = await started({ dataDir: dir, mock, token: OLD_TOKEN });
    const { source, warning } = agent.status().settings.token;
    expect(source).toBe('config');
    expect(warning).toContain(`chmod 600 ${file}`);
    expect(agent.status().roster.size).toBe(41); // the configured token works (both sites: no site set)
  });
});

describe('setRateBudget', () => {
  it('is in force at once: status shows the new limit and the requests keep within it', async () => {
    const mock = await mockWith([OLD_TOKEN]);
    const dir = data();
    const agent = await started({ dataDir: dir, mock, token: OLD_TOKEN, siteId: DEMO_SITE_ID });
    await new Promise((r) => setTimeout(r, 1_100)); // the roster's requests out of the window
    expect(await agent.setRateBudget(0, 1_000)).toMatchObject({ ok: false, code: 'budget_invalid' });
    expect(await agent.setRateBudget(5, 10)).toMatchObject({ ok: false, code: 'budget_invalid' });
    expect(await agent.setRateBudget(2.5, 1_000)).toMatchObject({ ok: false });
    expect(agent.status().rateWindow.limit).toBe(60);

    const from = Date.now();
    expect(kept(await agent.setRateBudget(3, 1_000))).toMatchObject({
      ok: true,
      code: 'budget_set',
      params: { limit: '3', window: '1', previousLimit: '60', previousWindow: '1' },
    });
    expect(agent.status().rateWindow).toMatchObject({ limit: 3, windowMs: 1_000 });
    expect(agent.status().settings.rateLimit).toEqual({ limit: 3, windowMs: 1_000 });
    for (let i = 1; i <= 9; i++) expect((await agent.punch({ kind: 'id', value: String(1000 + i) })).ok).toBe(true);
    await waitFor(() => agent.status().queue.sent === 9, 'nine punches sent', 15_000);
    const reqs = mock.requests().filter((x) => x.counted && x.at >= from);
    expect(reqs.length).toBeGreaterThanOrEqual(9);
    expect(maxInAnyWindow(reqs.map((x) => x.at), 1_000)).toBeLessThanOrEqual(3);
    expect(mock.requests().filter((x) => x.status === 429)).toHaveLength(0);
    expect(auditOf(dir).find((e) => e.event === 'rate_budget_set')?.detail).toBe('60 per 1 s -> 3 per 1 s');

    await agent.stop();
    const again = await started({ dataDir: dir, mock, token: OLD_TOKEN, siteId: DEMO_SITE_ID });
    expect(again.status().rateWindow.limit).toBe(3);
  });
});

describe('setSite', () => {
  it('refuses a malformed or unknown site; another one replaces the roster after its sync and survives a restart', async () => {
    const mock = await mockWith([OLD_TOKEN]);
    const dir = data();
    const agent = await started({ dataDir: dir, mock, token: OLD_TOKEN, siteId: DEMO_SITE_ID });
    const { call } = await bridgeFor(agent);
    expect(agent.status().roster.size).toBe(36);
    expect(agent.status().site?.id).toBe(DEMO_SITE_ID);

    expect(await call('setSite', { siteId: 'site-1' })).toMatchObject({ ok: true, value: { ok: false, code: 'site_invalid' } });
    const unknown = objectIdFor('other-site', 99);
    expect(await call('setSite', { siteId: unknown })).toMatchObject({
      ok: true,
      value: { ok: false, code: 'site_unknown', params: { siteId: unknown } },
    });
    expect(await call('setSite', { siteId: DEMO_SITE_ID })).toMatchObject({ ok: true, value: { ok: true, code: 'site_same', params: { siteId: DEMO_SITE_ID } } });
    expect(agent.status().settings.siteId).toBe(DEMO_SITE_ID);

    const r = await call('setSite', { siteId: OTHER_SITE });
    expect(r).toMatchObject({ ok: true, value: { ok: true, code: 'site_set', params: { siteId: OTHER_SITE, name: 'Obra Norte — Manaus' } } });
    expect(agent.status().settings.siteId).toBe(OTHER_SITE);
    await waitFor(() => agent.status().site?.id === OTHER_SITE, 'status.site on the new site', 10_000);
    expect(agent.status().roster.size).toBe(5);
    expect(agent.status().site).toEqual({ id: OTHER_SITE, name: 'Obra Norte — Manaus', timezone: 'America/Manaus' });
    expect(await agent.punch({ kind: 'id', value: '2001' })).toMatchObject({ ok: true, employeeName: 'Empregado Norte 1' });
    expect(await agent.punch({ kind: 'id', value: '1001' })).toMatchObject({ ok: false, reason: 'unknown_credential' });
    expect(auditOf(dir).find((e) => e.event === 'site_set')?.detail).toBe(`${DEMO_SITE_ID} -> ${OTHER_SITE} (Obra Norte — Manaus)`);

    await agent.stop();
    const again = await started({ dataDir: dir, mock, token: OLD_TOKEN, siteId: DEMO_SITE_ID });
    expect(again.status().settings.siteId).toBe(OTHER_SITE);
    const res = await again.syncRoster();
    expect(res).toMatchObject({ ok: true, employees: 5 });
    expect(again.status().site?.id).toBe(OTHER_SITE);
  });

  it('a site change while a sync of the old site runs: the old one commits nothing, the new one wins', async () => {
    const mock = await mockWith([OLD_TOKEN]);
    const agent = testAgent({ log, dataDir: data(), mock, token: OLD_TOKEN, siteId: DEMO_SITE_ID, settings: { roster: { pageSize: 5 } } });
    cleanups.push(() => agent.stop());
    await agent.start({ roster: false });
    const old = agent.syncRoster();
    const change = agent.setSite(OTHER_SITE);
    // One settings change at a time: another one meanwhile is told so.
    expect(kept(await agent.setRateBudget(5, 1_000))).toMatchObject({ ok: false, code: 'settings_busy' });
    expect(kept(await change)).toMatchObject({ ok: true, code: 'site_set' });
    expect(await old).toMatchObject({ ok: false, error: 'cancelled' });
    await waitFor(() => agent.status().site?.id === OTHER_SITE, 'the new site synced', 10_000);
    expect(agent.status().roster.size).toBe(5);
  });
});

describe('timeclock settings', () => {
  it('show lists what the admin screen set (never the token); reset goes back to the configuration', async () => {
    const mock = await mockWith([OLD_TOKEN, NEW_TOKEN]);
    const dir = data();
    const env = {
      TIMECLOCK_API_URL: mock.url,
      TIMECLOCK_API_TOKEN: OLD_TOKEN,
      TIMECLOCK_DATA_DIR: dir,
      TIMECLOCK_SITE_ID: DEMO_SITE_ID,
      TIMECLOCK_RATE_LIMIT: '60',
      TIMECLOCK_RATE_WINDOW_MS: '1000',
      TIMECLOCK_LOG_LEVEL: 'error',
    };
    const agent = await started({ dataDir: dir, mock, token: OLD_TOKEN, siteId: DEMO_SITE_ID });
    expect(await agent.setApiToken(NEW_TOKEN)).toMatchObject({ ok: true });
    expect(await agent.setSite(OTHER_SITE)).toMatchObject({ ok: true });
    expect(await agent.setRateBudget(5, 2_000)).toMatchObject({ ok: true });

    const running = await runCli(['settings', 'reset'], env);
    expect(running.code).toBe(1);
    expect(running.stderr).toMatch(/running .*stop it first/);
    await agent.stop();

    const shown = await runCli(['settings', 'show', '--json'], env);
    seen.push(shown.stdout, shown.stderr);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      settings: { siteId: OTHER_SITE, rateLimit: { limit: 5, windowMs: 2_000 }, token: { source: 'file', setAt: expect.any(Number) } },
    });
    const text = await runCli(['settings', 'show'], env);
    seen.push(text.stdout);
    expect(text.stdout).toMatch(/site: +[0-9a-f]{24} \(set on the admin screen/);
    expect(text.stdout).toMatch(/API token: +set on the admin screen .* \(readable only by the kiosk user\)/);

    const reset = await runCli(['settings', 'reset'], env);
    seen.push(reset.stdout, reset.stderr);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toMatch(/site, request budget, API token set on the admin screen forgotten/);
    expect(fs.existsSync(path.join(dir, TOKEN_FILE_NAME))).toBe(false);
    const after = JSON.parse((await runCli(['settings', 'show', '--json'], env)).stdout) as unknown;
    expect(after).toMatchObject({
      settings: { siteId: DEMO_SITE_ID, rateLimit: { limit: 60, windowMs: 1_000 }, token: { source: 'config', setAt: null, warning: null } },
    });
    expect(auditOf(dir).find((e) => e.event === 'settings_reset')?.detail).toBe('cleared: site, request budget, API token');

    const fresh = await started({ dataDir: dir, mock, token: OLD_TOKEN, siteId: DEMO_SITE_ID });
    expect(fresh.status().settings).toEqual({ siteId: DEMO_SITE_ID, rateLimit: { limit: 60, windowMs: 1_000 }, token: { source: 'config', setAt: null, warning: null } });
    // The other site's roster stays in use until the demo site's sync completes (never an empty roster).
    await waitFor(() => fresh.status().roster.size === 36, "the demo site's roster");
    await fresh.punch({ kind: 'id', value: '1007' });
    await waitFor(() => mock.records().some((x) => x.employee_external_id === '1007'), 'the punch');
    expect(mock.records().find((x) => x.employee_external_id === '1007')?.token).toBe(OLD_TOKEN);
  });

  it('usage errors name the subcommands', async () => {
    const r = await runCli(['settings', 'frob'], { TIMECLOCK_DATA_DIR: data() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/timeclock settings show/);
    expect(r.stderr).toMatch(/timeclock settings reset/);
  });
});
