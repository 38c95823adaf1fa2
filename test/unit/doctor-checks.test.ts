/**
 * The doctor's checks on their own, with stand-ins for what a test machine cannot be made to be
 * (a full disk, a directory root may not write, a 429, a skewed service, NTP off, a reader whose
 * node the udev rule does not open). The real command is tested in test/integration/doctor*.test.ts.
 */
import type fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ApiOutcome } from '../../src/api/client.js';
import { dataDirCheck, diskSpaceCheck, type FsIo } from '../../src/cli/doctor/local-checks.js';
import {
  clockCheck,
  probeService,
  serviceCheck,
  siteCheck,
  type ServiceProbe,
} from '../../src/cli/doctor/service-checks.js';
import { rosterCheck, type StoredFacts } from '../../src/cli/doctor/stored-checks.js';
import { readerChecks, timeSyncCheck, type CommandResult } from '../../src/cli/doctor/system-checks.js';
import { loadConfig } from '../../src/config.js';
import type { HidDeviceInfo } from '../../src/input/hid-backend.js';
import { HidUnavailableError } from '../../src/input/hid-load-error.js';
import type { ReaderConfig } from '../../src/input/reader-config.js';

const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code });

/** Paths that exist ('dir' or 'file'); `denied`: where access() refuses with EACCES; `free`: bytes available. */
function fakeFs(paths: Record<string, 'dir' | 'file'>, denied: string[] = [], free = 10e9): FsIo {
  return {
    stat: (p) => {
      const kind = paths[p];
      if (!kind) throw errno('ENOENT');
      return { isDirectory: () => kind === 'dir', size: 0 } as fs.Stats;
    },
    access: (p) => {
      if (denied.includes(p)) throw errno('EACCES');
    },
    statfs: () => ({ bavail: BigInt(free / 4096), bsize: 4096n }),
  };
}

const loaded = (dataDir: string) => loadConfig({ env: { TIMECLOCK_DATA_DIR: dataDir } });

describe('data directory and disk space', () => {
  it('refuses a directory this user cannot write, a file, and a missing one that cannot be made', () => {
    expect(dataDirCheck(loaded('/data'), fakeFs({ '/': 'dir', '/data': 'dir' }, ['/data'])).result).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/not writable by .* \(EACCES\)/),
    });
    expect(dataDirCheck(loaded('/data'), fakeFs({ '/': 'dir', '/data': 'file' })).result).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/is a file/),
    });
    expect(dataDirCheck(loaded('/ro/data'), fakeFs({ '/': 'dir', '/ro': 'dir' }, ['/ro'])).result).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/cannot be created \(\/ro: EACCES\)/),
    });
  });

  it('a directory not made yet but makeable is a warning; a writable one is ok', () => {
    expect(dataDirCheck(loaded('/var/data'), fakeFs({ '/': 'dir', '/var': 'dir' }))).toMatchObject({
      state: 'missing',
      result: { status: 'warn' },
    });
    expect(dataDirCheck(loaded('/data'), fakeFs({ '/': 'dir', '/data': 'dir' }))).toMatchObject({
      state: 'dir',
      result: { status: 'ok' },
    });
  });

  it.each([
    [49_999_999, 'fail', /^49 MB free .*under 50 MB/],
    [50_000_000, 'warn', /^50 MB free .*under 500 MB/],
    [499_999_999, 'warn', /^499 MB free/],
    [500_000_000, 'ok', /^500 MB free for \/data$/],
  ])('%d bytes free: %s', (free, status, detail) => {
    const io = fakeFs({ '/': 'dir', '/data': 'dir' });
    io.statfs = () => ({ bavail: free, bsize: 1 });
    expect(diskSpaceCheck('/data', io)).toMatchObject({ status, detail: expect.stringMatching(detail) });
  });
});

const probe = (
  outcome: ApiOutcome<unknown>,
  serverDate: number | null = null,
  sentAt = 1_000_000,
  receivedAt = 1_000_200,
): ServiceProbe => ({
  request: 'GET /employees',
  tokenFrom: 'the configured token',
  outcome,
  site: null,
  serverDate,
  sentAt,
  receivedAt,
});

describe('service, site and clock', () => {
  it.each([
    [
      { kind: 'rate_limited', retryAfterHeader: '30', serverDate: null },
      'warn',
      /rate limited \(429, Retry-After 30\).*try again later/,
    ],
    [{ kind: 'auth', status: 401, reason: '401 bad credentials', serverDate: null }, 'fail', /^token refused/],
    [{ kind: 'forbidden', status: 403, reason: '403 no', serverDate: null }, 'fail', /^token not allowed/],
    [{ kind: 'not_sent', error: 'ENOTFOUND: getaddrinfo' }, 'fail', /^unreachable \(ENOTFOUND/],
    [{ kind: 'unknown', error: 'UND_ERR_HEADERS_TIMEOUT' }, 'fail', /^no usable answer within 10000 ms/],
    [
      {
        kind: 'setup',
        status: 301,
        reason: 'the service answered from another address: https://x',
        location: 'https://x',
        serverDate: null,
      },
      'fail',
      /another address/,
    ],
    [
      { kind: 'ok', status: 200, value: null, serverDate: null },
      'ok',
      /^reachable, token accepted \(GET \/employees, the configured token: 200 in 200 ms\)/,
    ],
  ] as Array<[ApiOutcome<unknown>, string, RegExp]>)('%o -> %s', (outcome, status, detail) => {
    expect(serviceCheck(probe(outcome), 10_000)).toMatchObject({ status, detail: expect.stringMatching(detail) });
  });

  it('site: 404 fails, a suspect filter warns, a verified one is ok', () => {
    const site = (o: ApiOutcome<unknown>) => ({
      ...probe(o),
      site: { id: 'a'.repeat(24), name: 'Obra', timezone: null },
    });
    const okSite = site({ kind: 'ok', status: 200, value: {}, serverDate: null });
    expect(
      siteCheck(
        'a'.repeat(24),
        site({ kind: 'refused', status: 404, reason: '404 not found', serverDate: null }),
        null,
        false,
      ).status,
    ).toBe('fail');
    expect(siteCheck('a'.repeat(24), okSite, 'suspect', false)).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/siteFilterParam/),
    });
    expect(siteCheck('a'.repeat(24), okSite, 'verified', false)).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/^Obra \(a+\) found; the service honours/),
    });
    expect(siteCheck(null, null, null, false).status).toBe('ok');
  });

  it('clock: warns beyond the threshold, else ok with the offset; not measured without a Date', () => {
    const ok = { kind: 'ok', status: 200, value: null, serverDate: null } as const;
    // Date header (whole seconds) 40 s ahead of the middle of the request.
    expect(clockCheck(probe(ok, 1_000_100 + 40_000 - 500), 30_000, false)).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/^this machine is 40\.0 s behind the service \(±0\.6 s\), more than/),
    });
    expect(clockCheck(probe(ok, 1_000_100 - 3_000 - 500), 30_000, false)).toMatchObject({
      status: 'ok',
      detail: 'this machine is 3.0 s ahead of the service (±0.6 s)',
    });
    expect(clockCheck(probe(ok, null), 30_000, false).status).toBe('warn');
  });

  it('makes one GET /sites/{id} when a site is set, notes its Date and closes the client', async () => {
    const calls: string[] = [];
    const times = [5_000, 5_300];
    const result = await probeService(
      { baseUrl: 'http://127.0.0.1:1/v2.1', timeoutMs: 1_000, dialect: loaded('/d').config.api?.dialect as never },
      { token: 't', from: 'x' },
      'b'.repeat(24),
      { now: () => times.shift() ?? 0 },
      (opts) => ({
        getSite: async (id) => {
          calls.push(`site ${id}`);
          opts.onServerDate?.(7_000, 0, 1);
          return { kind: 'ok', status: 200, value: { id, name: 'S', timezone: null }, serverDate: 7_000 };
        },
        probe: async () => {
          calls.push('probe');
          return { kind: 'ok', status: 200, value: null, serverDate: null };
        },
        close: async () => void calls.push('close'),
      }),
    );
    expect(calls).toEqual([`site ${'b'.repeat(24)}`, 'close']);
    expect(result).toMatchObject({ serverDate: 7_000, sentAt: 5_000, receivedAt: 5_300, site: { name: 'S' } });
  });
});

describe('roster', () => {
  const facts = (sync: Partial<NonNullable<StoredFacts['sync']>> | null): StoredFacts => ({
    sync: sync ? { at: 0, ok: true, employees: 5, error: null, lastOkAt: 0, ...sync } : null,
    rosterSize: 5,
    adminPin: true,
    siteId: null,
    tokenSavedIn: null,
  });
  const H = 3_600_000;
  it('fails when no sync ever completed (a warning in the demo); warns when old or with skipped records', () => {
    expect(rosterCheck(facts(null), 0, H, false).status).toBe('fail');
    expect(rosterCheck(facts({ lastOkAt: null, ok: false, error: 'boom' }), 0, H, true)).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/last attempt failed: boom/),
    });
    expect(rosterCheck(facts({ lastOkAt: 0 }), 2 * H, H, false).status).toBe('ok');
    expect(rosterCheck(facts({ lastOkAt: 0 }), 2 * H + 1, H, false)).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/older than twice roster.refreshMs \(2\.0 h\)/),
    });
    expect(rosterCheck(facts({ skipped: { count: 3, examples: [] } }), 1, H, false)).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/3 records skipped/),
    });
  });
});

describe('time sync and readers', () => {
  const run = (r: Partial<CommandResult>) => async (): Promise<CommandResult> => ({
    code: 0,
    stdout: '',
    stderr: '',
    error: null,
    ...r,
  });
  it('timedatectl: yes ok, no warns, missing or failing is "unknown" (a warning)', async () => {
    expect(await timeSyncCheck(run({ stdout: 'yes\n' }))).toMatchObject({ status: 'ok' });
    expect(await timeSyncCheck(run({ stdout: 'no\n' }))).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/^not synchronised/),
    });
    expect(await timeSyncCheck(run({ code: null, error: errno('ENOENT') }))).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/^unknown: timedatectl not found/),
    });
    expect(await timeSyncCheck(run({ code: 1, stderr: 'Failed to connect to bus\nmore' }))).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/^unknown: timedatectl failed \(Failed to connect to bus\)/),
    });
  });

  const reader: ReaderConfig = {
    name: 'door',
    match: { vendorId: 0xffff, productId: 0x0035 },
    decoder: 'boot-keyboard',
    layout: 'auto',
    terminator: 'enter',
    transforms: {},
    reconnectMs: 3_000,
  } as ReaderConfig;
  const device: HidDeviceInfo = { vendorId: 0xffff, productId: 0x0035, path: '/dev/hidraw3', product: 'Reader' };
  const backend = (list: HidDeviceInfo[] | Error) => () => ({
    devices: async () => {
      if (list instanceof Error) throw list;
      return list;
    },
    open: async () => {
      throw new Error('not used');
    },
  });

  it('a node this user cannot open names the udev rule; attached and readable is ok', async () => {
    const denied = await readerChecks([reader], backend([device]), () => {
      throw errno('EACCES');
    });
    expect(denied).toEqual([
      {
        check: 'reader door',
        status: 'fail',
        detail: expect.stringMatching(
          /\/dev\/hidraw3 cannot be read by this user \(EACCES\): the udev rule is not applied.*\/lib\/udev\/rules\.d\/60-timeclock-readers\.rules.*assets\/60-timeclock-readers\.rules/,
        ),
      },
    ]);
    const opened: string[] = [];
    expect(await readerChecks([reader], backend([device]), (p) => void opened.push(p))).toEqual([
      { check: 'reader door', status: 'ok', detail: 'ffff:0035 Reader (/dev/hidraw3) attached and readable' },
    ]);
    expect(opened).toEqual(['/dev/hidraw3']);
  });

  it('node-hid that cannot load fails each reader with its one line; none configured is ok', async () => {
    const why = 'cannot use USB HID readers: libusb-1.0.so.0 is missing (Debian package libusb-1.0-0)';
    expect(await readerChecks([reader], backend(new HidUnavailableError(why)), () => {})).toEqual([
      { check: 'reader door', status: 'fail', detail: why },
    ]);
    expect(await readerChecks([reader], backend([]), () => {})).toMatchObject([
      { status: 'fail', detail: expect.stringMatching(/^not attached \(ffff:0035\)/) },
    ]);
    expect(await readerChecks([], backend(new Error('never asked')), () => {})).toEqual([
      { check: 'readers', status: 'ok', detail: 'none configured: keyboard-mode readers only' },
    ]);
  });
});
