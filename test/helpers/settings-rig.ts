import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { createLogger, type Logger } from '../../src/log.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import {
  DEMO_PAYMENT_SOURCE_ID,
  DEMO_WORK_SCHEDULE_ID,
  demoSeed,
  objectIdFor,
  type MockSeed,
} from '../../src/mock/seed.js';
import { AuditLog } from '../../src/store/roster/audit-log.js';
import { openDatabase } from '../../src/store/database.js';
import { startWebBridge, type WebBridge } from '../../src/web/web-bridge.js';
import { testAgent, type TestAgentOptions } from './agent.js';
import { tempDir } from './temp.js';

export const OLD_TOKEN = 'old-token-5e1d0c9b8a7f6e5d';
export const NEW_TOKEN = 'new-token-a1b2c3d4e5f60718';
export const WRONG_TOKEN = 'wrong-token-99f1e2d3c4b5a6';
export const SECRETS = [OLD_TOKEN, NEW_TOKEN, WRONG_TOKEN];
export const ADMIN_PIN = '582913';
export const OTHER_SITE = objectIdFor('other-site', 1);

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
        if (k === 'params' && v !== null && typeof v === 'object')
          out.push(...Object.values(v as Record<string, unknown>).map(String));
        walk(v);
      }
    }
  };
  walk(parsed);
  return out;
}

/** The demo account plus a second site (Manaus) with five employees of its own. */
export function twoSiteSeed(): MockSeed {
  const seed = demoSeed();
  seed.sites.push({
    _id: OTHER_SITE,
    name: 'Obra Norte — Manaus',
    timezone: 'America/Manaus',
    city: 'Manaus',
    state: 'AM',
  });
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

export type SettingsRig = {
  cleanups: Array<() => Promise<void> | void>;
  /** Answers, events, status and log lines of a test: none may hold a token. */
  seen: string[];
  /** An answer made in the test, kept for the checks after it. */
  kept<T>(r: T): T;
  /** Writes into `seen`. */
  log: Logger;
  mockWith(tokens: string[]): Promise<MockServer>;
  data(): string;
  started(o: TestAgentOptions): Promise<Agent>;
  auditOf(dataDir: string): ReturnType<AuditLog['recent']>;
  /** The web bridge in front of `agent`, logged in as admin; `call` returns the parsed answer. */
  bridgeFor(agent: Agent): Promise<{ bridge: WebBridge; call(name: string, body: unknown): Promise<unknown> }>;
};

/**
 * The admin screen's settings calls against a real agent (real SQLite, real mock API on loopback),
 * for one test file: call once at the top level. After each test it runs the cleanups, last first,
 * and checks that nothing seen held a token, nor any answer's params a token or the admin PIN.
 */
export function settingsRig(): SettingsRig {
  const cleanups: Array<() => Promise<void> | void> = [];
  const seen: string[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()?.();
    for (const s of seen) for (const secret of SECRETS) expect(s).not.toContain(secret);
    // The answers' params (what the screen words its text with) hold neither a token nor a PIN.
    for (const v of seen.flatMap(paramValues))
      for (const secret of [...SECRETS, ADMIN_PIN]) expect(v).not.toContain(secret);
    seen.length = 0;
  });

  function kept<T>(r: T): T {
    seen.push(JSON.stringify(r));
    return r;
  }

  const log = createLogger({ level: 'debug', write: (l) => seen.push(l) });

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

  async function bridgeFor(
    agent: Agent,
  ): Promise<{ bridge: WebBridge; call(name: string, body: unknown): Promise<unknown> }> {
    const root = path.join(data(), 'renderer');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>kiosk</title>');
    const bridge = await startWebBridge({
      agent,
      host: '127.0.0.1',
      port: 0,
      rendererDir: root,
      adminPin: { verify: async (p) => p === ADMIN_PIN },
      log,
    });
    cleanups.push(() => bridge.close());
    // The admin cookie the login sets, sent back as the kiosk's browser does.
    let cookie = '';
    const call = async (name: string, body: unknown): Promise<unknown> => {
      const res = await fetch(`${bridge.origin}/api/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-kiosk-token': bridge.token, ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(body),
      });
      const set = res.headers.get('set-cookie');
      if (set) cookie = /Max-Age=0/i.test(set) ? '' : (set.split(';')[0] ?? '');
      const text = await res.text();
      // The request carried the token; the answer must not.
      seen.push(text);
      return JSON.parse(text);
    };
    expect(await call('adminLogin', { pin: ADMIN_PIN })).toMatchObject({ ok: true, value: { ok: true } });
    return { bridge, call };
  }

  return { cleanups, seen, kept, log, mockWith, data, started, auditOf, bridgeFor };
}
