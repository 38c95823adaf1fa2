/**
 * `timeclock doctor`'s clock line reads the service's `Date` as the terminal does (issue 23): the
 * service's Date against this machine's clock, this machine's NTP state, and the verdict (ok, the
 * service's clock is off by N, no usable Date). Built CLI, the real mock with its `date` variant,
 * a `timedatectl` stand-in on PATH saying whether this machine is synchronised.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer, type ServerVariants } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { runCli } from '../helpers/cli.js';
import { byCheck, doctorEnv, fakeTools, parseLines, type Line } from '../helpers/doctor.js';
import { tempDir } from '../helpers/temp.js';

const seed = generatedSeed({ employees: 5, sites: 1 });
const SITE = seed.sites[0]?._id as string;
let mock: MockServer;
const cleanups: Array<() => void> = [];

function dir(): string {
  const t = tempDir('timeclock-doctor-date-');
  cleanups.push(t.cleanup);
  return t.dir;
}

beforeAll(async () => {
  mock = await startMockServer({ seed, rateLimit: { limit: 600, windowMs: 1_000 } });
});
afterAll(async () => {
  await mock.close();
  cleanups.forEach((c) => c());
});

async function clockLine(variants: ServerVariants | null, synchronised: 'yes' | 'no'): Promise<Line | undefined> {
  mock.setVariants(variants);
  const res = await runCli(
    ['doctor'],
    doctorEnv({ apiUrl: mock.url, siteId: SITE, dataDir: dir(), tools: fakeTools(dir(), synchronised) }),
  );
  return byCheck(parseLines(res.stdout))['clock'];
}

describe("doctor's Date line", () => {
  it("a service a year ahead of an NTP-synchronised machine: the service's clock is off, this machine's is kept", async () => {
    const c = await clockLine({ date: { mode: 'offset', offsetMs: 365 * 24 * 3_600_000 } }, 'yes');
    expect(c?.status).toBe('warn');
    expect(c?.detail).toMatch(
      /^this machine is 365\.0 d behind the service \(±\d\.\d s\), more than clockSkewThresholdMs .* and clock\.serviceSkewBoundMs \(5\.0 min\)/,
    );
    expect(c?.detail).toMatch(
      /the service's clock is off by 365\.0 d; this machine is NTP-synchronised, so the terminal keeps its own time and marks the punches/,
    );
    expect(c?.detail).toMatch(/this machine: NTP-synchronised \(timedatectl: NTPSynchronized=yes\)$/);
  });

  it('an hour ahead of a machine that is not synchronised: the service is followed once a second answer agrees', async () => {
    const c = await clockLine({ date: { mode: 'offset', offsetMs: 3_600_000 } }, 'no');
    expect(c).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(
        /this machine is not known to be synchronised, so the terminal follows the service's clock once a second answer agrees; fix the time sync; this machine: not NTP-synchronised/,
      ),
    });
  });

  it.each([
    [
      'missing',
      /^not measured: the service sends no usable Date \(no Date header\): punches are sent at this machine's clock, marked unanchored/,
    ],
    [
      'garbage',
      /^not measured: the service sends no usable Date \(its Date "Someday, 32 Foo 20XX 25:61:00 GMT" cannot be read\)/,
    ],
  ] as const)('Date %s: said, with what the terminal does about it', async (mode, said) => {
    expect(await clockLine({ date: { mode } }, 'yes')).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(said),
    });
  });

  it("agreeing clocks: ok, with this machine's NTP state", async () => {
    expect(await clockLine(null, 'yes')).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(
        /^this machine is \d+\.\d s (behind|ahead of) the service \(±\d\.\d s\); this machine: NTP-synchronised/,
      ),
    });
  });
});
