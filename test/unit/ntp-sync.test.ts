import { describe, expect, it } from 'vitest';
import {
  NtpState,
  readNtpSync,
  realCommandRun,
  type CommandRun,
  type NtpReadIo,
} from '../../src/agent/host/ntp-sync.js';
import { dateHeader, GARBAGE_DATE } from '../../src/mock/transport.js';

/** A box with these tools answering these outputs (exit 0), the others absent. */
function box(
  tools: Record<string, { stdout: string; code?: number }>,
  files: string[] = [],
  platform: NodeJS.Platform = 'linux',
): NtpReadIo & { asked: string[] } {
  const asked: string[] = [];
  const run: CommandRun = async (cmd) => {
    asked.push(cmd);
    const t = tools[cmd];
    if (!t)
      return { code: null, stdout: '', error: Object.assign(new Error(`spawn ${cmd} ENOENT`), { code: 'ENOENT' }) };
    return { code: t.code ?? 0, stdout: t.stdout, error: null };
  };
  return { run, exists: (p) => files.includes(p), platform, asked };
}

describe("this machine's NTP state", () => {
  it('timedatectl first (the kernel flag, whatever the NTP client)', async () => {
    expect(await readNtpSync(box({ timedatectl: { stdout: 'yes\n' } }))).toEqual({
      sync: 'yes',
      source: 'timedatectl: NTPSynchronized=yes',
    });
    expect((await readNtpSync(box({ timedatectl: { stdout: 'no\n' } }))).sync).toBe('no');
  });
  it("without systemd: timesyncd's flag file, then chronyc, then ntpstat; nothing: unknown", async () => {
    const failing = { timedatectl: { stdout: '', code: 1 } };
    expect((await readNtpSync(box(failing, ['/run/systemd/timesync/synchronized']))).sync).toBe('yes');
    const chrony = (leap: string) =>
      box({ ...failing, chronyc: { stdout: `Reference ID    : C0A80001 (ntp)\nLeap status     : ${leap}\n` } });
    expect((await readNtpSync(chrony('Normal'))).sync).toBe('yes');
    expect((await readNtpSync(chrony('Not synchronised'))).sync).toBe('no');
    expect((await readNtpSync(box({ ntpstat: { stdout: 'unsynchronised', code: 1 } }))).sync).toBe('no');
    expect((await readNtpSync(box({ ntpstat: { stdout: 'synchronised to NTP server', code: 0 } }))).sync).toBe('yes');
    const none = box({});
    expect((await readNtpSync(none)).sync).toBe('unknown');
    expect(none.asked).toEqual(['timedatectl', 'chronyc', 'ntpstat']);
  });
  it('Windows: w32tm, a time source other than the local CMOS clock', async () => {
    const w32 = (source: string) =>
      box({ w32tm: { stdout: `Leap Indicator: 0(no warning)\nStratum: 3\nSource: ${source}\n` } }, [], 'win32');
    expect((await readNtpSync(w32('time.windows.com,0x9'))).sync).toBe('yes');
    expect((await readNtpSync(w32('Local CMOS Clock'))).sync).toBe('no');
    expect((await readNtpSync(box({ w32tm: { stdout: 'Indicador de salto: 0\n' } }, [], 'win32'))).sync).toBe(
      'unknown',
    );
  });
  it('cached: asked again after its time or a step, never on each read; a configured value is never asked', async () => {
    let mono = 0;
    let calls = 0;
    let answer: 'yes' | 'no' = 'yes';
    const s = new NtpState({ probe: () => (calls++, answer), mono: () => mono, ttlMs: 60_000 });
    expect(s.current()).toBe('yes');
    answer = 'no';
    mono = 30_000;
    expect(s.current()).toBe('yes');
    s.invalidate();
    expect(s.current()).toBe('no');
    mono = 200_000;
    s.current();
    expect(calls).toBe(3);
    const fixed = new NtpState({ probe: () => (calls++, 'yes'), mono: () => mono, ttlMs: 60_000, configured: 'no' });
    mono = 10_000_000;
    expect(fixed.current()).toBe('no');
    expect(calls).toBe(3);
  });
});

describe("the mock's date variant", () => {
  it('missing: no header; garbage: one no parser reads; offset: the mock clock moved', () => {
    const now = Date.UTC(2026, 10, 23, 13, 0, 20);
    expect(dateHeader(now)).toBe('Mon, 23 Nov 2026 13:00:20 GMT');
    expect(dateHeader(now, { mode: 'missing' })).toBeNull();
    expect(dateHeader(now, { mode: 'garbage' })).toBe(GARBAGE_DATE);
    expect(Number.isNaN(Date.parse(GARBAGE_DATE))).toBe(true);
    expect(dateHeader(now, { mode: 'offset', offsetMs: -3_600_000 })).toBe('Mon, 23 Nov 2026 12:00:20 GMT');
  });
});

describe('the clock query a child process makes', () => {
  it('is started without the API token, the signing password or proxy credentials in its environment', async () => {
    const saved = { ...process.env };
    process.env['TIMECLOCK_API_TOKEN'] = 'tok-must-not-leak';
    process.env['TIMECLOCK_AFD_SIGNING_PASSWORD'] = 'pw-must-not-leak';
    process.env['HTTPS_PROXY'] = 'http://user:cred-must-not-leak@proxy.example:3128';
    try {
      const r = await realCommandRun('env', [], 3_000);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('PATH=');
      expect(r.stdout).not.toMatch(/must-not-leak/);
    } finally {
      for (const k of ['TIMECLOCK_API_TOKEN', 'TIMECLOCK_AFD_SIGNING_PASSWORD', 'HTTPS_PROXY']) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
  });
});
