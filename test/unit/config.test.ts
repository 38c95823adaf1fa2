import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, configWarnings, loadConfig } from '../../src/config.js';
import { tempDir } from '../helpers/temp.js';

const TOKEN = 'tok-zq7Hk2PvX9mWn4Rt';
const URL_OK = 'https://api.example.com/v2.1';
const SITE = '65a1b2c3d4e5f60718293a4b';

let dir: string;
let cleanup: () => void;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  ({ dir, cleanup } = tempDir('timeclock-config-'));
  // XDG_DATA_HOME pins the default data dir so nothing depends on the real home directory
  env = { XDG_DATA_HOME: path.join(dir, 'xdg') };
});
afterEach(() => cleanup());

function writeFile(name: string, content: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

function configError(opts: { file?: string; env: NodeJS.ProcessEnv }): ConfigError {
  try {
    loadConfig(opts);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('with no API configured runs the demo in its own data directory', () => {
    // No system data directory (test/unit/data-dir-default.test.ts covers it): the per-user one.
    const { config, demo } = loadConfig({ env, systemDataDir: path.join(dir, 'no-system-dir') });
    expect(demo).toBe(true);
    expect(config.api).toBeUndefined();
    expect(config.dataDir).toBe(path.join(dir, 'xdg', 'timeclock-kiosk', 'demo'));
    expect(config.rateLimit).toEqual({ limit: 60, windowMs: 60_000, accountLimit: 60, punchReserve: 0.1 });
  });

  it('maps the environment variables to their keys', () => {
    const { config, demo, sources } = loadConfig({
      env: {
        ...env,
        TIMECLOCK_API_URL: URL_OK,
        TIMECLOCK_API_TOKEN: TOKEN,
        TIMECLOCK_SITE_ID: SITE,
        TIMECLOCK_DATA_DIR: path.join(dir, 'data'),
        TIMECLOCK_RATE_LIMIT: '30',
        TIMECLOCK_RATE_WINDOW_MS: '120000',
      },
    });
    expect(demo).toBe(false);
    expect(config.api?.baseUrl).toBe(URL_OK);
    expect(config.api?.token).toBe(TOKEN);
    expect(config.siteId).toBe(SITE);
    expect(config.dataDir).toBe(path.join(dir, 'data'));
    expect(config.rateLimit).toEqual({ limit: 30, windowMs: 120_000, accountLimit: 60, punchReserve: 0.1 });
    expect(sources).toContain('TIMECLOCK_RATE_LIMIT');
  });

  it('a production config without a data dir uses the default one, not the demo one', () => {
    const { config } = loadConfig({ env: { ...env, TIMECLOCK_API_URL: URL_OK, TIMECLOCK_API_TOKEN: TOKEN } });
    expect(config.dataDir).toBe(path.join(dir, 'xdg', 'timeclock-kiosk'));
  });

  it('lets the environment override the file, key by key', () => {
    const file = writeFile(
      'config.json',
      JSON.stringify({
        api: { baseUrl: URL_OK, token: 'from-file' },
        siteId: SITE,
        rateLimit: { limit: 10, windowMs: 30_000 },
      }),
    );
    const { config, sources } = loadConfig({
      file,
      env: { ...env, TIMECLOCK_RATE_LIMIT: '5', TIMECLOCK_API_TOKEN: TOKEN },
    });
    expect(config.rateLimit).toEqual({ limit: 5, windowMs: 30_000, accountLimit: 60, punchReserve: 0.1 });
    expect(config.api?.token).toBe(TOKEN);
    expect(config.api?.baseUrl).toBe(URL_OK);
    expect(config.siteId).toBe(SITE);
    expect(sources[0]).toBe(file);
  });

  it('reads the file named by TIMECLOCK_CONFIG', () => {
    const file = writeFile('c.json', JSON.stringify({ rateLimit: { limit: 7 } }));
    expect(loadConfig({ env: { ...env, TIMECLOCK_CONFIG: file } }).config.rateLimit.limit).toBe(7);
  });

  it('ignores empty environment variables', () => {
    const { config } = loadConfig({ env: { ...env, TIMECLOCK_RATE_LIMIT: '', TIMECLOCK_API_URL: '' } });
    expect(config.rateLimit.limit).toBe(60);
    expect(config.api).toBeUndefined();
  });
});

describe('loadConfig errors name the key and where its value came from', () => {
  const cases: { name: string; env?: NodeJS.ProcessEnv; file?: string; expected: RegExp }[] = [
    {
      name: 'limit 0',
      env: { TIMECLOCK_RATE_LIMIT: '0' },
      expected: /rateLimit\.limit \(from TIMECLOCK_RATE_LIMIT\): .*1/,
    },
    {
      name: "limit 'abc'",
      env: { TIMECLOCK_RATE_LIMIT: 'abc' },
      expected: /rateLimit\.limit \(from TIMECLOCK_RATE_LIMIT\): .*number/,
    },
    {
      name: 'URL not ending in /v2.1',
      env: { TIMECLOCK_API_URL: 'https://api.example.com/v2', TIMECLOCK_API_TOKEN: TOKEN },
      expected: /api\.baseUrl \(from TIMECLOCK_API_URL\): must end with \/v2\.1/,
    },
    {
      name: 'bad siteId',
      env: { TIMECLOCK_SITE_ID: 'site-1' },
      expected: /siteId \(from TIMECLOCK_SITE_ID\): must be a 24-character hexadecimal id/,
    },
    {
      name: 'unknown time zone',
      env: { TIMECLOCK_TIMEZONE: 'Mars/Olympus' },
      expected: /timezone \(from TIMECLOCK_TIMEZONE\): is not a known IANA time zone/,
    },
    {
      name: 'bad window in the file',
      file: '{"rateLimit":{"windowMs":5}}',
      expected: /rateLimit\.windowMs \(from file .*config\.json\): .*100/,
    },
    {
      name: 'unknown key in the file',
      file: '{"ratelimit":{"limit":5}}',
      expected: /\(from file .*config\.json\): unknown key\(s\) ratelimit/,
    },
    {
      name: 'unknown nested key in the file',
      file: '{"rateLimit":{"burst":5}}',
      expected: /rateLimit \(from file .*config\.json\): unknown key\(s\) burst/,
    },
    { name: 'file not JSON', file: '{ rateLimit: 5 ', expected: /config file .*config\.json: not valid JSON/ },
    { name: 'file holding an array', file: '[1, 2]', expected: /config file .*config\.json: must hold a JSON object/ },
    { name: 'file holding null', file: 'null', expected: /config file .*config\.json: must hold a JSON object/ },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const file = c.file === undefined ? undefined : writeFile('config.json', c.file);
      const e = configError({ file, env: { ...env, ...c.env } });
      expect(e.name).toBe('ConfigError');
      expect(e.message).toMatch(c.expected);
    });
  }

  it('a missing file', () => {
    const file = path.join(dir, 'nope.json');
    expect(configError({ file, env }).message).toMatch(/config file .*nope\.json: cannot be read \(ENOENT\)/);
  });

  it('lists every problem, one per line', () => {
    const e = configError({ env: { ...env, TIMECLOCK_RATE_LIMIT: '0', TIMECLOCK_SITE_ID: 'x' } });
    expect(e.problems).toHaveLength(2);
    expect(e.message.split('\n')).toHaveLength(3);
  });

  // The schema's message for a missing token ('is required when api.baseUrl is set') only fires
  // for an empty string; an absent token falls through to zod's generic type error, attributed to
  // "defaults" although no default exists.
  it('a URL without a token says the token is required', () => {
    const e = configError({ env: { ...env, TIMECLOCK_API_URL: URL_OK } });
    expect(e.message).toMatch(/api\.token/);
    expect(e.message).toMatch(/required/);
    expect(e.message).not.toMatch(/from defaults/);
  });
});

describe('the token never appears in an error message', () => {
  const tokenBits = (m: string): boolean =>
    m.includes(TOKEN) || m.includes(TOKEN.slice(0, 8)) || m.includes(TOKEN.slice(-8));

  it('for validation errors from the environment and the file', () => {
    const attempts: { env: NodeJS.ProcessEnv; file?: string }[] = [
      { env: { TIMECLOCK_API_URL: 'https://api.example.com/v3', TIMECLOCK_API_TOKEN: TOKEN } },
      {
        env: { TIMECLOCK_API_URL: 'ftp://api.example.com/v2.1', TIMECLOCK_API_TOKEN: TOKEN, TIMECLOCK_RATE_LIMIT: 'x' },
      },
      { env: {}, file: JSON.stringify({ api: { baseUrl: 'nope', token: TOKEN, extra: TOKEN } }) },
      { env: {}, file: JSON.stringify({ api: { baseUrl: URL_OK, token: TOKEN }, [TOKEN.slice(0, 3)]: TOKEN }) },
    ];
    for (const a of attempts) {
      const file = a.file === undefined ? undefined : writeFile('config.json', a.file);
      const e = configError({ file, env: { ...env, ...a.env } });
      expect(tokenBits(e.message), e.message).toBe(false);
    }
  });

  // JSON.parse's message quotes the source around the error, so a token written without quotes
  // (or in single quotes) is printed in the error: config.ts passes that message on verbatim.
  it('not even when the file is broken right at the token', () => {
    for (const text of [
      `{"api":{"baseUrl":"${URL_OK}","token":${TOKEN}}}`,
      `{"api":{"baseUrl":"${URL_OK}","token":'${TOKEN}'}}`,
    ]) {
      const e = configError({ file: writeFile('config.json', text), env });
      expect(e.message).toMatch(/not valid JSON/);
      expect(tokenBits(e.message), e.message).toBe(false);
    }
  });
});

describe('set-up checks (the token never travels in clear by accident)', () => {
  it('http:// to another host is refused naming the key; https, loopback and api.allowInsecure are accepted', () => {
    const e = configError({
      env: { ...env, TIMECLOCK_API_URL: 'http://api.example.com/v2.1', TIMECLOCK_API_TOKEN: TOKEN },
    });
    expect(e.message).toMatch(
      /api\.baseUrl \(from TIMECLOCK_API_URL\): must be https:\/\/ \(the token would travel in clear\)/,
    );
    for (const url of [URL_OK, 'http://127.0.0.1:8080/v2.1', 'http://localhost/v2.1', 'http://[::1]:9/v2.1']) {
      expect(
        loadConfig({ env: { ...env, TIMECLOCK_API_URL: url, TIMECLOCK_API_TOKEN: TOKEN } }).config.api?.baseUrl,
      ).toBe(url);
    }
    const file = writeFile(
      'insecure.json',
      JSON.stringify({ api: { baseUrl: 'http://10.0.0.5/v2.1', token: TOKEN, allowInsecure: true } }),
    );
    expect(loadConfig({ file, env }).config.api?.allowInsecure).toBe(true);
  });

  it("a budget above the account's 60 per minute is allowed, and warned about", () => {
    expect(configWarnings({ limit: 60, windowMs: 60_000 })).toEqual([]);
    expect(configWarnings({ limit: 20, windowMs: 10_000 })).toEqual([
      expect.stringMatching(/20 per 10 s\) is above the account's 60 per 60 s/),
    ]);
    expect(
      loadConfig({
        env: { ...env, TIMECLOCK_API_URL: URL_OK, TIMECLOCK_API_TOKEN: TOKEN, TIMECLOCK_RATE_LIMIT: '5000' },
      }).config.rateLimit.limit,
    ).toBe(5000);
  });
});
