/**
 * Whether this machine's clock is NTP-synchronised: it decides who wins when the service's `Date`
 * disagrees with it (domain/time/date-plausibility.ts). Asked of the system in the order that works
 * without systemd too, each step cheap and bounded:
 *   1. `timedatectl show -p NTPSynchronized --value`: the kernel's own flag (adjtimex), whichever
 *      NTP client sets it (systemd-timesyncd, chrony, ntpd);
 *   2. /run/systemd/timesync/synchronized: systemd-timesyncd's mark, when timedated is not there;
 *   3. `chronyc -n tracking`: its "Leap status" (Normal: synchronised);
 *   4. `ntpstat`: exit 0 synchronised, 1 not;
 *   Windows: `w32tm /query /status` (a time source other than the local CMOS clock).
 * Anything else is 'unknown', which counts as not synchronised. Cached: asked again after
 * `ttlMs`, and at once after a step of the wall clock (setting the clock clears the kernel's flag).
 */
import { execFile } from 'node:child_process';
import { withoutSecrets } from '../../config.js';
import fs from 'node:fs';
import type { NtpSync } from '../../domain/time/date-plausibility.js';
import type { Monotonic } from '../../domain/time/clock.js';

export type { NtpSync } from '../../domain/time/date-plausibility.js';

/** A command's result (a spawn error, ENOENT…, in `error`; a non-zero exit is a result). */
export type CommandRun = (
  cmd: string,
  args: string[],
  timeoutMs: number,
) => Promise<{ code: number | null; stdout: string; error: NodeJS.ErrnoException | null }>;

export type NtpReadIo = { run: CommandRun; exists: (path: string) => boolean; platform: NodeJS.Platform };

/** What the system said, and which tool said it (for doctor). */
export type NtpReading = { sync: NtpSync; source: string };

/** An injected probe: tests say synchronised or not without asking the machine. */
export type NtpProbe = () => NtpSync | Promise<NtpSync>;

const STEP_TIMEOUT_MS = 3_000;

export const realCommandRun: CommandRun = (cmd, args, timeoutMs) =>
  new Promise((resolve) => {
    // Without the token and the other secrets: a clock query has no use for them.
    execFile(
      cmd,
      args,
      { timeout: timeoutMs, encoding: 'utf8', windowsHide: true, env: withoutSecrets(process.env) },
      (error, stdout) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        const spawnError = error && typeof error.code === 'string' ? (error as NodeJS.ErrnoException) : null;
        resolve({ code, stdout: String(stdout), error: spawnError });
      },
    );
  });

export const realNtpIo: NtpReadIo = {
  run: realCommandRun,
  exists: (p) => fs.existsSync(p),
  platform: process.platform,
};

export async function readNtpSync(io: NtpReadIo): Promise<NtpReading> {
  if (io.platform === 'win32') return windowsSync(io);
  const t = await io.run('timedatectl', ['show', '-p', 'NTPSynchronized', '--value'], STEP_TIMEOUT_MS);
  if (!t.error && t.code === 0) {
    const v = t.stdout.trim();
    if (v === 'yes' || v === 'no') return { sync: v, source: `timedatectl: NTPSynchronized=${v}` };
  }
  if (io.exists('/run/systemd/timesync/synchronized'))
    return { sync: 'yes', source: 'systemd-timesyncd: /run/systemd/timesync/synchronized' };
  const c = await io.run('chronyc', ['-n', 'tracking'], STEP_TIMEOUT_MS);
  if (!c.error && c.code === 0) {
    const leap = /^Leap status\s*:\s*(.+)$/im.exec(c.stdout)?.[1]?.trim();
    if (leap === 'Not synchronised') return { sync: 'no', source: 'chronyc: Leap status Not synchronised' };
    if (leap) return { sync: 'yes', source: `chronyc: Leap status ${leap}` };
  }
  const n = await io.run('ntpstat', [], STEP_TIMEOUT_MS);
  if (!n.error && (n.code === 0 || n.code === 1))
    return { sync: n.code === 0 ? 'yes' : 'no', source: `ntpstat: exit ${n.code}` };
  return { sync: 'unknown', source: 'no NTP client could tell (timedatectl, chronyc, ntpstat)' };
}

async function windowsSync(io: NtpReadIo): Promise<NtpReading> {
  const w = await io.run('w32tm', ['/query', '/status'], STEP_TIMEOUT_MS);
  if (w.error || w.code !== 0) return { sync: 'unknown', source: 'w32tm /query /status could not run' };
  const source = /^Source:\s*(.+)$/im.exec(w.stdout)?.[1]?.trim();
  const leap = /^Leap Indicator:\s*(\d)/im.exec(w.stdout)?.[1];
  // Output in another language, or no source line: nothing to go by.
  if (!source || leap === undefined) return { sync: 'unknown', source: 'w32tm: status not readable' };
  const local = /Local CMOS Clock|Free-running System Clock/i.test(source);
  return { sync: !local && leap !== '3' ? 'yes' : 'no', source: `w32tm: source ${source}, leap ${leap}` };
}

/** The real probe: the system's answer, 'unknown' when asking failed. */
export const systemNtpProbe: NtpProbe = () =>
  readNtpSync(realNtpIo).then(
    (r) => r.sync,
    () => 'unknown' as const,
  );

/** What the NTP state is built from. */
export type NtpStateDeps = {
  probe: NtpProbe;
  mono: Monotonic;
  /** How long an answer is used before the probe runs again. */
  ttlMs?: number;
  /** A configured answer replaces the probe. */
  configured?: 'auto' | 'yes' | 'no';
};

/**
 * The cached answer, read on every answer of the service (so never a command on that path): the
 * probe runs in the background when the answer is older than `ttlMs` or after `invalidate()`.
 * 'unknown' until the first answer. A configured value ('yes' / 'no') replaces the probe.
 */
export class NtpState {
  private value: NtpSync = 'unknown';
  private askedAt = Number.NEGATIVE_INFINITY;
  private asking = false;

  private readonly probe: NtpProbe;
  private readonly mono: Monotonic;
  /** How long an answer is used before the probe runs again. */
  private readonly ttlMs: number;

  constructor(d: NtpStateDeps) {
    const { configured = 'auto' } = d;
    this.probe = d.probe;
    this.mono = d.mono;
    this.ttlMs = d.ttlMs ?? 10 * 60_000;
    if (configured !== 'auto') {
      this.value = configured;
      this.askedAt = Number.POSITIVE_INFINITY;
    }
  }

  current(): NtpSync {
    if (this.mono() - this.askedAt >= this.ttlMs) this.refresh();
    return this.value;
  }

  /** The wall clock stepped: ask again at the next look. */
  invalidate(): void {
    if (this.askedAt !== Number.POSITIVE_INFINITY) this.askedAt = Number.NEGATIVE_INFINITY;
  }

  refresh(): void {
    if (this.asking || this.askedAt === Number.POSITIVE_INFINITY) return;
    this.askedAt = this.mono();
    let r: NtpSync | Promise<NtpSync>;
    try {
      r = this.probe();
    } catch {
      r = 'unknown';
    }
    if (typeof r === 'string') {
      this.value = r;
      return;
    }
    this.asking = true;
    r.then(
      (v) => (this.value = v),
      () => (this.value = 'unknown'),
    ).finally(() => (this.asking = false));
  }
}
