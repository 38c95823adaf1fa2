/**
 * The way to the service as configuration: which proxy applies (api.proxy, the environment,
 * NO_PROXY, loopback), how it is printed, which variables are secrets for a child process, what a
 * TLS failure is called, and what a bad CA file or proxy variable says at start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { beforeServer, networkHint, TLS_ADVICE, TLS_WORDS, tlsCauseOf } from '../../src/api/net-errors.js';
import {
  noProxyMatches,
  proxyEnvOf,
  routeFor,
  routeWords,
  scrubProxySecrets,
  shownProxy,
} from '../../src/api/proxy.js';
import { ConfigError, loadConfig, withoutSecrets } from '../../src/config.js';
import { makeCa } from '../helpers/test-ca.js';
import { tempDir } from '../helpers/temp.js';

const API = new URL('https://api.example.com/v2.1');

describe('which proxy a request to the API goes through', () => {
  it('HTTPS_PROXY for an https API (lower-case first), falling back to HTTP_PROXY; HTTP_PROXY alone for http', () => {
    expect(
      routeFor(API, undefined, proxyEnvOf({ HTTPS_PROXY: 'http://a:3128', https_proxy: 'http://b:3128' })),
    ).toMatchObject({ kind: 'proxy', shown: 'http://b:3128', from: 'https_proxy' });
    expect(routeFor(API, undefined, proxyEnvOf({ HTTP_PROXY: 'http://c:8080' }))).toMatchObject({
      kind: 'proxy',
      shown: 'http://c:8080',
      from: 'HTTP_PROXY',
    });
    expect(
      routeFor(new URL('http://api.example.com/v2.1'), undefined, proxyEnvOf({ HTTPS_PROXY: 'http://a:3128' })),
    ).toEqual({ kind: 'direct', why: 'none', from: null });
    expect(routeFor(API, undefined, proxyEnvOf({}))).toEqual({ kind: 'direct', why: 'none', from: null });
  });

  it('api.proxy wins over the environment; NO_PROXY still applies to it', () => {
    const env = proxyEnvOf({ HTTPS_PROXY: 'http://env:3128', NO_PROXY: 'internal.example' });
    expect(routeFor(API, 'http://conf:8080', env)).toMatchObject({
      kind: 'proxy',
      shown: 'http://conf:8080',
      from: 'api.proxy',
    });
    expect(routeFor(API, 'http://conf:8080', proxyEnvOf({ no_proxy: '.example.com' }))).toEqual({
      kind: 'direct',
      why: 'no_proxy',
      from: 'no_proxy',
    });
  });

  it("NO_PROXY with undici's syntax: exact host, subdomains, a port, '*'", () => {
    expect(noProxyMatches('api.example.com', 443, 'example.com')).toBe(true);
    expect(noProxyMatches('api.example.com', 443, '.example.com')).toBe(true);
    expect(noProxyMatches('api.example.com', 443, '*.example.com')).toBe(true);
    expect(noProxyMatches('api.example.com', 443, 'other.com, example.com:8443')).toBe(false);
    expect(noProxyMatches('api.example.com', 443, 'other.com example.com:443')).toBe(true);
    expect(noProxyMatches('notexample.com', 443, 'example.com')).toBe(false);
    expect(noProxyMatches('anything', 1, '*')).toBe(true);
    expect(noProxyMatches('api.example.com', 443, '')).toBe(false);
  });

  it('a loopback API is always reached directly (no proxy reaches this machine for us)', () => {
    const env = proxyEnvOf({ HTTPS_PROXY: 'http://p:3128', HTTP_PROXY: 'http://p:3128' });
    for (const u of [
      'http://127.0.0.1:8080/v2.1',
      'http://localhost:1/v2.1',
      'https://[::1]:8443/v2.1',
      'http://127.9.9.9/v2.1',
    ]) {
      expect(routeFor(new URL(u), 'http://p:3128', env)).toEqual({ kind: 'direct', why: 'loopback', from: null });
    }
  });

  it('prints the proxy with its credentials as ***, and scrubs them from any text', () => {
    const url = new URL('http://site-user:Pa%24%24word-9@proxy.example:3128');
    expect(shownProxy(url)).toBe('http://***@proxy.example:3128');
    expect(routeWords(routeFor(API, url.href, {}))).toBe('through proxy http://***@proxy.example:3128 (api.proxy)');
    const b64 = Buffer.from('site-user:Pa$$word-9').toString('base64');
    const dirty = `failed for site-user:Pa%24%24word-9 (Basic ${b64}) with Pa$$word-9`;
    const clean = scrubProxySecrets(dirty, url);
    expect(clean).not.toMatch(/Pa\$\$word|Pa%24%24word/);
    expect(clean).not.toContain(b64);
  });
});

describe('secrets and child processes', () => {
  it('drops TIMECLOCK_API_PROXY and proxy variables that carry credentials; keeps the others', () => {
    const env = withoutSecrets({
      TIMECLOCK_API_PROXY: 'http://u:p@x:1',
      HTTPS_PROXY: 'http://u:pass@x:1',
      http_proxy: 'x:3128',
      NO_PROXY: 'a',
      PATH: '/bin',
      TIMECLOCK_API_TOKEN: 't',
    });
    expect(env).toEqual({ http_proxy: 'x:3128', NO_PROXY: 'a', PATH: '/bin' });
  });
});

describe('TLS failures by cause', () => {
  it('names the cause and what to do for each verification code', () => {
    for (const c of [
      'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
      'SELF_SIGNED_CERT_IN_CHAIN',
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    ])
      expect(tlsCauseOf(c)).toBe('untrusted');
    for (const c of ['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']) expect(tlsCauseOf(c)).toBe('expired');
    expect(tlsCauseOf('ERR_TLS_CERT_ALTNAME_INVALID')).toBe('name');
    expect(tlsCauseOf('ECONNRESET')).toBeNull();
    expect(TLS_ADVICE.untrusted).toMatch(/set api\.caFile to the CA's PEM/);
    expect(TLS_ADVICE.expired).toMatch(/check this terminal's date, then the service's certificate/);
    expect(TLS_ADVICE.name).toMatch(/check api\.baseUrl/);
  });

  it('a refused certificate or a refused tunnel is "before the server"; a reset is not', () => {
    const wrapped = Object.assign(new Error('fetch failed'), {
      cause: Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' }),
    });
    expect(beforeServer(wrapped)).toBe(true);
    expect(
      beforeServer(
        Object.assign(new Error('Proxy response (403) !== 200 when HTTP Tunneling'), { code: 'UND_ERR_ABORTED' }),
      ),
    ).toBe(true);
    expect(beforeServer(Object.assign(new Error('aborted'), { code: 'UND_ERR_ABORTED' }))).toBe(false);
    expect(beforeServer(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBe(false);
    expect(networkHint(wrapped, 'http://***@p:3128')).toBe(` — ${TLS_WORDS.expired}; via proxy http://***@p:3128`);
  });
});

describe('api.caFile and proxy variables at load', () => {
  const base = {
    TIMECLOCK_API_URL: 'https://api.example.com/v2.1',
    TIMECLOCK_API_TOKEN: 't',
    TIMECLOCK_DATA_DIR: '/tmp/x',
  };
  const problems = (env: Record<string, string>): string[] => {
    try {
      loadConfig({ env });
    } catch (e) {
      if (e instanceof ConfigError) return e.problems;
      throw e;
    }
    return [];
  };

  it('a missing file, a file with no PEM certificate and a broken certificate are configuration errors', () => {
    const t = tempDir();
    try {
      const missing = path.join(t.dir, 'nope.pem');
      expect(problems({ ...base, TIMECLOCK_API_CA_FILE: missing })).toEqual([
        `api.caFile (from TIMECLOCK_API_CA_FILE): ${missing} cannot be read (ENOENT)`,
      ]);
      const der = path.join(t.dir, 'ca.der');
      fs.writeFileSync(der, Buffer.from([0x30, 0x82, 0x01, 0x0a]));
      expect(problems({ ...base, TIMECLOCK_API_CA_FILE: der })[0]).toMatch(/ca\.der holds no PEM certificate/);
      const broken = path.join(t.dir, 'broken.pem');
      fs.writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
      expect(problems({ ...base, TIMECLOCK_API_CA_FILE: broken })[0]).toMatch(
        /broken\.pem: certificate 1 of 1 cannot be parsed/,
      );
      const good = path.join(t.dir, 'ca.pem');
      const a = makeCa('A');
      const b = makeCa('B');
      fs.writeFileSync(good, a.cert + b.cert);
      expect(problems({ ...base, TIMECLOCK_API_CA_FILE: good })).toEqual([]);
    } finally {
      t.cleanup();
    }
  });

  it('a proxy URL that cannot be used is named by its variable or key, its value never quoted', () => {
    expect(problems({ ...base, HTTPS_PROXY: 'socks5://u:hunter22@p:1080' })).toEqual([
      'HTTPS_PROXY must be an http:// or https:// proxy (socks5:// is not supported)',
    ]);
    const [p] = problems({ ...base, TIMECLOCK_API_PROXY: 'http://u:hunter22@p:3128/some/path' });
    expect(p).toMatch(/^api\.proxy \(from TIMECLOCK_API_PROXY\): must be only scheme, host and port/);
    for (const msg of [...problems({ ...base, HTTPS_PROXY: 'socks5://u:hunter22@p:1080' }), p ?? ''])
      expect(msg).not.toContain('hunter22');
    // Without a scheme, as many environments write it: http://.
    expect(problems({ ...base, HTTPS_PROXY: 'proxy.example:3128' })).toEqual([]);
  });
});
