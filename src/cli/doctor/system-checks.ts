/**
 * Doctor checks of the machine around the terminal: the system's time sync and the configured
 * badge readers. The tool runner, the HID backend and the device open are passed in.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { withoutSecrets } from '../../config.js';
import { hex4, type HidBackend } from '../../input/hid-backend.js';
import { HidUnavailableError } from '../../input/hid-load-error.js';
import { describeDevice, matches } from '../../input/hid-reader.js';
import type { ReaderConfig } from '../../input/reader-config.js';
import { fail, firstLine, ok, warn, type CheckResult } from './result.js';

export type CommandResult = {
  code: number | null;
  stdout: string;
  stderr: string;
  error: NodeJS.ErrnoException | null;
};
export type CommandRunner = (cmd: string, args: string[], timeoutMs: number) => Promise<CommandResult>;

export const realRunner: CommandRunner = (cmd, args, timeoutMs) =>
  new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { timeout: timeoutMs, encoding: 'utf8', env: withoutSecrets(process.env) },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        // A non-zero exit is a result, not a failure to run: only spawn errors (ENOENT…) stay errors.
        const spawnError = error && typeof error.code === 'string' ? (error as NodeJS.ErrnoException) : null;
        resolve({ code, stdout: String(stdout), stderr: String(stderr), error: spawnError });
      },
    );
  });

/** systemd's view of NTP; a box without systemd (a container) is "unknown", not broken. */
export async function timeSyncCheck(run: CommandRunner): Promise<CheckResult> {
  const name = 'time sync';
  const r = await run('timedatectl', ['show', '-p', 'NTPSynchronized', '--value'], 5_000);
  if (r.error) {
    const why = r.error.code === 'ENOENT' ? 'timedatectl not found' : `timedatectl could not run (${r.error.code})`;
    return warn(name, `unknown: ${why}; check the machine's NTP client (chrony, systemd-timesyncd)`);
  }
  const value = r.stdout.trim();
  if (r.code !== 0)
    return warn(
      name,
      `unknown: timedatectl failed (${firstLine(r.stderr) || `exit ${r.code ?? 'signal'}`}); check the machine's NTP client`,
    );
  if (value === 'yes') return ok(name, 'synchronised (timedatectl: NTPSynchronized=yes)');
  if (value === 'no')
    return warn(
      name,
      'not synchronised (timedatectl: NTPSynchronized=no): timedatectl set-ntp true, or check chrony / systemd-timesyncd and the network',
    );
  return warn(name, `unknown: timedatectl answered '${value.slice(0, 40)}'`);
}

/** The rule that gives the kiosk user the reader's /dev/hidraw* node, where the package and the sources keep it. */
export const UDEV_RULE_HINT =
  "the udev rule is not applied: put the reader's ids in 60-timeclock-readers.rules (/lib/udev/rules.d/60-timeclock-readers.rules from the package, " +
  'assets/60-timeclock-readers.rules in the sources; edit a copy in /etc/udev/rules.d/), run udevadm control --reload-rules && udevadm trigger, and replug';

/** Opens a device node for reading and closes it again: what the agent's open needs, nothing read. */
export function openForRead(p: string): void {
  fs.closeSync(fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK));
}

/** Each configured reader: attached (enumerated by node-hid) and its node readable by this user. */
export async function readerChecks(
  readers: readonly ReaderConfig[],
  backend: () => HidBackend,
  open: (p: string) => void,
): Promise<CheckResult[]> {
  if (readers.length === 0) return [ok('readers', 'none configured: keyboard-mode readers only')];
  let devices;
  try {
    devices = await backend().devices();
  } catch (e) {
    // node-hid's one line (missing library and its package) for every reader: none can work.
    const why = e instanceof HidUnavailableError ? e.message : `cannot list HID devices: ${firstLine(e)}`;
    return readers.map((r) => fail(`reader ${r.name}`, why));
  }
  return readers.map((r) => {
    const name = `reader ${r.name}`;
    const wanted =
      r.match === 'auto-keyboard'
        ? 'any keyboard-class device'
        : `${hex4(r.match.vendorId)}:${hex4(r.match.productId)}`;
    const device = devices.find((d) => matches(r.match, d) && d.path !== undefined);
    if (!device?.path)
      return fail(name, `not attached (${wanted}): plug it in, or check its ids with timeclock hid list`);
    // Only a Linux device node can be tried this way; elsewhere node-hid's path is an opaque id.
    if (!device.path.startsWith('/dev/')) return ok(name, `${describeDevice(device)} attached`);
    try {
      open(device.path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM')
        return fail(
          name,
          `${describeDevice(device)} attached but ${device.path} cannot be read by this user (${code}): ${UDEV_RULE_HINT}`,
        );
      return fail(
        name,
        `${describeDevice(device)} attached but ${device.path} cannot be opened (${code ?? firstLine(e)})`,
      );
    }
    return ok(name, `${describeDevice(device)} attached and readable`);
  });
}
