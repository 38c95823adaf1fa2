import fs from 'node:fs';
import { hex4, type HidBackend } from '../../input/hid-backend.js';
import { HidUnavailableError } from '../../input/hid-load-error.js';
import { NodeHidBackend } from '../../input/node-hid-backend.js';
import { runHidRecord, runHidReplay } from './hid-capture.js';
import { Exit, UsageError, type CliOptions } from '../common/options.js';

/** `timeclock hid list`: the ids to put in the config (and in the udev rule). */
export async function runHidList(opts: CliOptions, backend: HidBackend = new NodeHidBackend()): Promise<number> {
  const devices = await backend.devices();
  if (opts.json) {
    process.stdout.write(JSON.stringify(devices) + '\n');
    return Exit.ok;
  }
  if (devices.length === 0) {
    process.stdout.write(
      'no HID devices found (is the reader plugged in? on Linux, can this user read /dev/hidraw*? see README "Badge readers")\n',
    );
    return Exit.ok;
  }
  process.stdout.write('vendor:product  usage page/usage  product (manufacturer)  serial  path\n');
  for (const d of devices) {
    const usage =
      d.usagePage === undefined
        ? '-'
        : `0x${hex4(d.usagePage)}/0x${hex4(d.usage ?? 0)}${d.usagePage === 1 && d.usage === 6 ? ' keyboard' : ''}`;
    process.stdout.write(
      `${hex4(d.vendorId)}:${hex4(d.productId)}  ${usage}  ${d.product ?? '?'} (${d.manufacturer ?? '?'})  ${d.serialNumber || '-'}  ${d.path ?? '-'}\n`,
    );
  }
  return Exit.ok;
}

export async function runHid(opts: CliOptions, args: string[]): Promise<number> {
  try {
    return await runHidCommand(opts, args);
  } catch (e) {
    // A missing USB library is the machine's setup, not a bug: one line, no stack trace.
    if (!(e instanceof HidUnavailableError)) throw e;
    process.stderr.write(`timeclock: ${e.message}\n`);
    return Exit.error;
  }
}

async function runHidCommand(opts: CliOptions, args: string[]): Promise<number> {
  const [sub, file] = args;
  switch (sub) {
    case 'list':
      return runHidList(opts);
    case 'replay':
    case 'record':
      if (!file) throw new UsageError(`usage: timeclock hid ${sub} <file>`);
      if (sub === 'replay') {
        if (!fs.existsSync(file)) throw new UsageError(`no capture file ${file}`);
        return runHidReplay(opts, file);
      }
      return runHidRecord(opts, file);
    default:
      throw new UsageError('usage: timeclock hid list | hid replay <file> | hid record <file>');
  }
}
