/**
 * A service behind a certificate from a private CA, made for this run (test/helpers/test-ca.ts):
 * api.caFile makes it work, NODE_EXTRA_CA_CERTS still does, a bad CA file stops the start, and each
 * kind of certificate failure is named with what to do, by the doctor and in status' last error.
 * The service is the real mock behind HTTPS fronts on loopback, one per certificate.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { runCli } from '../helpers/cli.js';
import { byCheck, doctorEnv, fakeTools, parseLines, type Line } from '../helpers/doctor.js';
import { startConnectProxy, startTlsFront, type TlsFront } from '../helpers/network-edge.js';
import { EXPIRED, makeCa, selfSigned, type TestCa } from '../helpers/test-ca.js';
import { tempDir } from '../helpers/temp.js';

const LOOPBACK = { names: ['localhost'], ips: ['127.0.0.1'] };
const DAY = 86_400_000;
let mock: MockServer;
let ca: TestCa;
let caFile: string;
let otherCaFile: string;
let tools: { bin: string; chromium: string };
const fronts: Record<'good' | 'chain' | 'selfSigned' | 'expired' | 'early' | 'wrongName', TlsFront> = {} as never;
const cleanups: Array<() => Promise<void> | void> = [];

function dir(): string {
  const t = tempDir('timeclock-trust-');
  cleanups.push(t.cleanup);
  return t.dir;
}
const urlOf = (f: TlsFront): string => `https://127.0.0.1:${f.port}/v2.1`;

beforeAll(async () => {
  mock = await startMockServer({ rateLimit: { limit: 600, windowMs: 1_000 } });
  const mockPort = Number(new URL(mock.url).port);
  ca = makeCa();
  const d = dir();
  caFile = path.join(d, 'site-ca.pem');
  fs.writeFileSync(caFile, ca.cert);
  otherCaFile = path.join(d, 'other-ca.pem');
  fs.writeFileSync(otherCaFile, makeCa('Some Other CA').cert);
  tools = fakeTools(d, 'yes');
  const now = Date.now();
  fronts.good = await startTlsFront(mockPort, ca.issue(LOOPBACK));
  fronts.chain = await startTlsFront(mockPort, { ...ca.issue(LOOPBACK), chain: ca.cert });
  fronts.selfSigned = await startTlsFront(mockPort, selfSigned(LOOPBACK));
  fronts.expired = await startTlsFront(mockPort, ca.issue({ ...LOOPBACK, ...EXPIRED }));
  fronts.early = await startTlsFront(
    mockPort,
    ca.issue({ ...LOOPBACK, notBefore: new Date(now + 30 * DAY), notAfter: new Date(now + 400 * DAY) }),
  );
  fronts.wrongName = await startTlsFront(mockPort, ca.issue({ names: ['api.example.com'] }));
});
afterAll(async () => {
  for (const f of Object.values(fronts)) await f.close();
  await mock.close();
  for (const c of cleanups.reverse()) await c();
});

const env = (apiUrl: string, dataDir: string, extra: Record<string, string> = {}): Record<string, string> => ({
  TIMECLOCK_API_URL: apiUrl,
  TIMECLOCK_API_TOKEN: 'demo-token',
  TIMECLOCK_DATA_DIR: dataDir,
  TIMECLOCK_LOG_LEVEL: 'error',
  TIMECLOCK_RETRY_BASE_MS: '10',
  TIMECLOCK_RETRY_MAX_MS: '20',
  ...extra,
});

type Status = { queue: Record<string, number>; lastError: { message: string } | null };
const status = async (e: Record<string, string>): Promise<Status> =>
  JSON.parse((await runCli(['status', '--json'], e)).stdout) as Status;

describe('a service with a certificate from a private CA', () => {
  it('works with api.caFile; without it nothing reaches the service, the punch waits (not in doubt) and status says to set api.caFile', async () => {
    const d = dir();
    // The front sends its CA with the certificate: without api.caFile, SELF_SIGNED_CERT_IN_CHAIN.
    const trusted = env(urlOf(fronts.chain), d, { TIMECLOCK_API_CA_FILE: caFile });
    const untrusted = env(urlOf(fronts.chain), d);
    expect((await runCli(['roster', 'sync'], trusted)).stdout).toMatch(/roster: 36 employees/);

    const requests = mock.requests().length;
    expect((await runCli(['start', '--headless'], untrusted, '1003\n', 30_000)).stdout).toMatch(/^registered/m);
    const blocked = await runCli(['flush'], untrusted);
    expect(blocked.code).toBe(3);
    expect(mock.requests().length).toBe(requests); // the handshake failed: no request was made
    const s = await status(untrusted);
    expect(s.queue).toMatchObject({ pending: 1, in_doubt: 0, sent: 0 });
    expect(s.lastError?.message).toMatch(
      /SELF_SIGNED_CERT_IN_CHAIN: .*untrusted issuer: set api\.caFile to the CA's PEM/,
    );
    expect(s.lastError?.message).not.toMatch(/--use-system-ca/);

    const delivered = await runCli(['flush'], trusted);
    expect(delivered.stdout).toMatch(/queue empty \(sent 1,/);
    expect(mock.records().filter((r) => r.employee_external_id === '1003')).toHaveLength(1);
  });

  it('NODE_EXTRA_CA_CERTS keeps working, alone and beside an api.caFile of another CA', async () => {
    const alone = await runCli(['roster', 'sync'], env(urlOf(fronts.good), dir(), { NODE_EXTRA_CA_CERTS: caFile }));
    expect(alone.stdout).toMatch(/roster: 36 employees/);
    const beside = await runCli(
      ['roster', 'sync'],
      env(urlOf(fronts.good), dir(), { NODE_EXTRA_CA_CERTS: caFile, TIMECLOCK_API_CA_FILE: otherCaFile }),
    );
    expect(beside.stdout).toMatch(/roster: 36 employees/);
    // The other CA alone does not vouch for this service: the file is really what decides.
    const other = await runCli(
      ['roster', 'sync'],
      env(urlOf(fronts.good), dir(), { TIMECLOCK_API_CA_FILE: otherCaFile }),
    );
    expect(other.stdout).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
  });

  it('a CA file that is missing or not PEM stops the start and fails the doctor: a configuration error, exit 2', async () => {
    const d = dir();
    const missing = path.join(d, 'nope.pem');
    const start = await runCli(
      ['start', '--headless'],
      env(urlOf(fronts.good), d, { TIMECLOCK_API_CA_FILE: missing }),
      '1001\n',
    );
    expect(start.code).toBe(2);
    expect(start.stderr).toContain(`api.caFile (from TIMECLOCK_API_CA_FILE): ${missing} cannot be read (ENOENT)`);
    const notPem = path.join(d, 'ca.txt');
    fs.writeFileSync(notPem, 'not a certificate\n');
    const doctor = await runCli(
      ['doctor', '--json'],
      doctorEnv(
        { apiUrl: urlOf(fronts.good), siteId: '', dataDir: d, tools },
        { TIMECLOCK_SITE_ID: '', TIMECLOCK_API_CA_FILE: notPem },
      ),
    );
    expect(doctor.code).toBe(2);
    expect(JSON.parse(doctor.stdout)).toEqual([
      {
        check: 'configuration',
        status: 'fail',
        detail: expect.stringMatching(/api\.caFile \(from TIMECLOCK_API_CA_FILE\): .*ca\.txt holds no PEM certificate/),
      },
    ]);
  });
});

describe('the doctor names the cause of each certificate failure, with what to do', () => {
  async function doctor(apiUrl: string, extra: Record<string, string> = {}): Promise<Record<string, Line>> {
    const res = await runCli(
      ['doctor'],
      doctorEnv({ apiUrl, siteId: '', dataDir: dir(), tools }, { TIMECLOCK_SITE_ID: '', ...extra }),
    );
    expect(res.stderr).toBe('');
    return byCheck(parseLines(res.stdout));
  }
  const UNTRUSTED = "set api.caFile to the CA's PEM";
  const DATE = "check this terminal's date, then the service's certificate";
  const NAME = 'check api.baseUrl';

  it.each([
    ['an issuer this terminal does not trust (leaf only)', 'good', {}, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', UNTRUSTED],
    ['an untrusted root sent in the chain', 'chain', {}, 'SELF_SIGNED_CERT_IN_CHAIN', UNTRUSTED],
    ['a self-signed certificate', 'selfSigned', {}, 'DEPTH_ZERO_SELF_SIGNED_CERT', UNTRUSTED],
    ['an expired certificate', 'expired', { ca: true }, 'CERT_HAS_EXPIRED', DATE],
    ['a certificate not yet valid', 'early', { ca: true }, 'CERT_NOT_YET_VALID', DATE],
    ['a certificate for another name', 'wrongName', { ca: true }, 'ERR_TLS_CERT_ALTNAME_INVALID', NAME],
  ] as const)('%s', async (_what, front, o, code, advice) => {
    const c = await doctor(urlOf(fronts[front]), 'ca' in o ? { TIMECLOCK_API_CA_FILE: caFile } : {});
    expect(c['service']?.status).toBe('fail');
    expect(c['service']?.detail.startsWith(`certificate refused (${code}): `)).toBe(true);
    expect(c['service']?.detail.endsWith(advice)).toBe(true);
    expect(c['service']?.detail).not.toMatch(/DNS|firewall/);
  });

  it('names the CA file in force and the proxy, and through the proxy still names the cause', async () => {
    const HOST = 'api.timeclock.test';
    const front = await startTlsFront(Number(new URL(mock.url).port), ca.issue({ names: [HOST] }));
    const proxy = await startConnectProxy({ hosts: { [HOST]: '127.0.0.1' } });
    cleanups.push(
      () => proxy.close(),
      () => front.close(),
    );
    const apiUrl = `https://${HOST}:${front.port}/v2.1`;
    const good = await doctor(apiUrl, { HTTPS_PROXY: proxy.url, TIMECLOCK_API_CA_FILE: caFile });
    expect(good['proxy']).toEqual({
      check: 'proxy',
      status: 'ok',
      detail: `http://127.0.0.1:${proxy.port} (from HTTPS_PROXY): CONNECT ${HOST}:${front.port} accepted`,
    });
    expect(good['trust']?.detail).toMatch(
      new RegExp(
        `^api\\.caFile ${caFile.replace(/[.]/g, '\\.')}: 1 certificate \\(Timeclock Test Site CA, valid until \\d{4}-\\d\\d-\\d\\d\\) added to Node's \\d+ default CAs$`,
      ),
    );
    expect(good['service']?.status).toBe('ok');
    const untrusted = await doctor(apiUrl, { HTTPS_PROXY: proxy.url });
    expect(untrusted['proxy']?.status).toBe('ok');
    expect(untrusted['trust']?.detail).toMatch(/^Node's default CA list \(\d+ certificates\); no api\.caFile$/);
    expect(untrusted['service']?.detail).toBe(
      `certificate refused (UNABLE_TO_VERIFY_LEAF_SIGNATURE): the service's certificate is from an issuer this terminal does not trust: ${UNTRUSTED}`,
    );
    const none = await doctor(urlOf(fronts.good), { TIMECLOCK_API_CA_FILE: caFile });
    expect(none['proxy']?.detail).toBe(
      `none for 127.0.0.1:${fronts.good.port}: direct (a loopback address is never proxied)`,
    );
  });
});
