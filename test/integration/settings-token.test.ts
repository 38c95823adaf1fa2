/**
 * The admin screen's setApiToken call against a real agent (real SQLite, real mock API on
 * loopback): a new API token checked with the service, saved, in force at once and kept across a
 * restart; saves that fail, demo mode, and a token file others can read. The token never appears
 * in an answer, event, status, log line or audit entry. The other settings are in settings.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TokenStore } from '../../src/agent/host/token-store.js';
import { callResultSchema } from '../../src/contract.js';
import { TOKEN_FILE_NAME } from '../../src/store/private-file.js';
import { NEW_TOKEN, OLD_TOKEN, settingsRig, WRONG_TOKEN } from '../helpers/settings-rig.js';
import { waitFor } from '../helpers/temp.js';

const { kept, mockWith, data, started, auditOf, bridgeFor } = settingsRig();

describe('setApiToken', () => {
  it('punches captured while the token was refused are delivered with the new one, which a restart keeps', async () => {
    const mock = await mockWith([OLD_TOKEN]);
    const dir = data();
    const agent = await started({ dataDir: dir, mock, token: OLD_TOKEN, retry: { authRetryMs: 60_000 } });
    const { call } = await bridgeFor(agent);
    expect(agent.status().settings.token).toEqual({ source: 'config', setAt: null, warning: null });

    // The service revokes the old token and issues a new one (through the mock's control endpoint).
    const put = await fetch(`${mock.origin}/__mock/tokens`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([NEW_TOKEN]),
    });
    expect(put.status).toBe(200);
    for (const id of ['1001', '1002', '1003']) expect((await agent.punch({ kind: 'id', value: id })).ok).toBe(true);
    await waitFor(() => agent.status().authRefused !== null, 'the token refusal');
    expect(agent.status().sendingPaused?.reason).toBe('auth');

    // A wrong token is checked with the service and refused: nothing saved, nothing changed.
    const wrong = callResultSchema('setApiToken').parse(await call('setApiToken', { token: WRONG_TOKEN }));
    expect(wrong).toMatchObject({
      ok: true,
      value: { ok: false, code: 'token_refused', params: { reason: expect.any(String) } },
    });
    expect(fs.existsSync(path.join(dir, TOKEN_FILE_NAME))).toBe(false);
    expect(agent.status().settings.token.source).toBe('config');
    // Malformed input: a clear refusal before anything is sent.
    expect(await call('setApiToken', { token: 'has a space' })).toMatchObject({
      ok: true,
      value: { ok: false, code: 'token_invalid', params: { max: '512' } },
    });
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
    expect(r).toMatchObject({
      ok: false,
      code: 'token_save_failed',
      params: { error: expect.stringMatching(/^the system secret store could not encrypt/) },
    });
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
