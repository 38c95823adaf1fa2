import fs from 'node:fs';
import { loadConfig } from '../../config.js';
import { formatCaptureLine, parseCapture, replayCapture } from '../../input/capture-file.js';
import type { HidBackend } from '../../input/hid-backend.js';
import { describeDevice, matches } from '../../input/hid-reader.js';
import { NodeHidBackend } from '../../input/node-hid-backend.js';
import { decoderFor, readerConfigSchema, type ReaderConfig } from '../../input/reader-config.js';
import { Exit, intFlag, UsageError, type CliOptions } from '../common/options.js';

/** The first configured reader, or a keyboard-report reader with defaults when none is. */
function readerConfig(opts: CliOptions): ReaderConfig {
  const { config } = loadConfig({ file: opts.config });
  return config.readers[0] ?? readerConfigSchema.parse({ name: 'default', match: 'auto-keyboard' });
}

/** `timeclock hid replay <file>`: each code the configured decoder finds in a capture. */
export function runHidReplay(opts: CliOptions, file: string): number {
  const reader = readerConfig(opts);
  const parsed = parseCapture(fs.readFileSync(file, 'utf8'));
  for (const e of parsed.errors) process.stdout.write(`line ${e.line}: skipped: ${e.reason}\n`);
  let codes = 0;
  let errors = parsed.errors.length;
  for (const r of replayCapture(parsed.reports, decoderFor(reader), reader.transforms)) {
    const where = `${r.line === null ? '' : `line ${r.line} `}+${r.atMs}ms`;
    if (r.event.type === 'code') {
      codes++;
      process.stdout.write(`${where}: code ${r.event.code}\n`);
    } else {
      errors++;
      process.stdout.write(`${where}: dropped: ${r.event.reason}\n`);
    }
  }
  process.stdout.write(`${codes} codes, ${errors} dropped (decoder ${reader.decoder}, reader "${reader.name}")\n`);
  return Exit.ok;
}

/** `timeclock hid record <file>`: what the configured reader sends, for support. */
export async function runHidRecord(
  opts: CliOptions,
  file: string,
  backend: HidBackend = new NodeHidBackend(),
): Promise<number> {
  const reader = readerConfig(opts);
  const seconds = intFlag('seconds', opts.seconds, 30, 1, 3_600);
  const device = (await backend.devices()).find((d) => matches(reader.match, d) && d.path !== undefined);
  if (!device?.path) throw new UsageError(`no device matches reader "${reader.name}"; see timeclock hid list`);
  const out = fs.createWriteStream(file, { flags: 'wx' });
  out.write(`# timeclock hid record: ${describeDevice(device)}, ${new Date().toISOString()}\n`);
  const handle = await backend.open(device.path);
  let last = Date.now();
  let reports = 0;
  handle.onData((bytes) => {
    const now = Date.now();
    out.write(formatCaptureLine(now - last, bytes) + '\n');
    last = now;
    reports++;
  });
  process.stderr.write(`recording ${describeDevice(device)} for ${seconds} s into ${file} (Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    const t = setTimeout(resolve, seconds * 1000);
    handle.onError(() => resolve());
    process.once('SIGINT', () => {
      clearTimeout(t);
      resolve();
    });
  });
  await handle.close();
  await new Promise<void>((resolve) => out.end(resolve));
  process.stderr.write(`${reports} reports written\n`);
  return Exit.ok;
}
