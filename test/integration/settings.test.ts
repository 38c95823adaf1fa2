/**
 * The admin screen's settings calls against a real agent (real SQLite, real mock API on loopback):
 * another site, another request budget — each checked, saved, in force at once, kept across a
 * restart — and `timeclock settings show` / `reset` undoing them. No token appears in an answer,
 * event, status, log line or audit entry. A new API token is in settings-token.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { maxInAnyWindow } from '../../src/domain/rate/sliding-window.js';
import { DEMO_SITE_ID, objectIdFor } from '../../src/mock/seed.js';
import { TOKEN_FILE_NAME } from '../../src/store/private-file.js';
import { testAgent } from '../helpers/agent.js';
import { runCli } from '../helpers/cli.js';
import { NEW_TOKEN, OLD_TOKEN, OTHER_SITE, settingsRig } from '../helpers/settings-rig.js';
import { waitFor } from '../helpers/temp.js';

const { cleanups, seen, kept, log, mockWith, data, started, auditOf, bridgeFor } = settingsRig();

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
    expect(
      maxInAnyWindow(
        reqs.map((x) => x.at),
        1_000,
      ),
    ).toBeLessThanOrEqual(3);
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

    expect(await call('setSite', { siteId: 'site-1' })).toMatchObject({
      ok: true,
      value: { ok: false, code: 'site_invalid' },
    });
    const unknown = objectIdFor('other-site', 99);
    expect(await call('setSite', { siteId: unknown })).toMatchObject({
      ok: true,
      value: { ok: false, code: 'site_unknown', params: { siteId: unknown } },
    });
    expect(await call('setSite', { siteId: DEMO_SITE_ID })).toMatchObject({
      ok: true,
      value: { ok: true, code: 'site_same', params: { siteId: DEMO_SITE_ID } },
    });
    expect(agent.status().settings.siteId).toBe(DEMO_SITE_ID);

    const r = await call('setSite', { siteId: OTHER_SITE });
    expect(r).toMatchObject({
      ok: true,
      value: { ok: true, code: 'site_set', params: { siteId: OTHER_SITE, name: 'Obra Norte — Manaus' } },
    });
    expect(agent.status().settings.siteId).toBe(OTHER_SITE);
    await waitFor(() => agent.status().site?.id === OTHER_SITE, 'status.site on the new site', 10_000);
    expect(agent.status().roster.size).toBe(5);
    expect(agent.status().site).toEqual({ id: OTHER_SITE, name: 'Obra Norte — Manaus', timezone: 'America/Manaus' });
    expect(await agent.punch({ kind: 'id', value: '2001' })).toMatchObject({
      ok: true,
      employeeName: 'Empregado Norte 1',
    });
    expect(await agent.punch({ kind: 'id', value: '1001' })).toMatchObject({ ok: false, reason: 'unknown_credential' });
    expect(auditOf(dir).find((e) => e.event === 'site_set')?.detail).toBe(
      `${DEMO_SITE_ID} -> ${OTHER_SITE} (Obra Norte — Manaus)`,
    );

    await agent.stop();
    const again = await started({ dataDir: dir, mock, token: OLD_TOKEN, siteId: DEMO_SITE_ID });
    expect(again.status().settings.siteId).toBe(OTHER_SITE);
    const res = await again.syncRoster();
    expect(res).toMatchObject({ ok: true, employees: 5 });
    expect(again.status().site?.id).toBe(OTHER_SITE);
  });

  it('a site change while a sync of the old site runs: the old one commits nothing, the new one wins', async () => {
    const mock = await mockWith([OLD_TOKEN]);
    const agent = testAgent({
      log,
      dataDir: data(),
      mock,
      token: OLD_TOKEN,
      siteId: DEMO_SITE_ID,
      settings: { roster: { pageSize: 5 } },
    });
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
      settings: {
        siteId: OTHER_SITE,
        rateLimit: { limit: 5, windowMs: 2_000 },
        token: { source: 'file', setAt: expect.any(Number) },
      },
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
      settings: {
        siteId: DEMO_SITE_ID,
        rateLimit: { limit: 60, windowMs: 1_000 },
        token: { source: 'config', setAt: null, warning: null },
      },
    });
    expect(auditOf(dir).find((e) => e.event === 'settings_reset')?.detail).toBe(
      'cleared: site, request budget, API token',
    );

    const fresh = await started({ dataDir: dir, mock, token: OLD_TOKEN, siteId: DEMO_SITE_ID });
    expect(fresh.status().settings).toEqual({
      siteId: DEMO_SITE_ID,
      rateLimit: { limit: 60, windowMs: 1_000 },
      token: { source: 'config', setAt: null, warning: null },
    });
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
