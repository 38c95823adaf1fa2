/**
 * One HID reader per configured one (node-hid unless the runtime brings a backend). Their state goes
 * to the status recorder; their scans to a `ScanInlet` the agent connects itself to once built.
 */
import type { Config } from '../../config.js';
import type { ReaderStatus } from '../../domain/punch/reader-status.js';
import { HidReader } from '../../input/hid-reader.js';
import { NodeHidBackend } from '../../input/node-hid-backend.js';
import { decoderFor, transformFor } from '../../input/reader-config.js';
import type { Runtime } from '../host/runtime.js';

/** Where the readers' scans go: nowhere until the agent connects (a scan before that is dropped, as at start). */
export class ScanInlet {
  private to: ((code: string, source: string) => void) | null = null;

  connect(to: (code: string, source: string) => void): void {
    this.to = to;
  }

  scanned(code: string, source: string): void {
    this.to?.(code, source);
  }
}

export type ReaderSink = { noteReaders(states: ReaderStatus[]): void };

export function buildReaders(config: Config, rt: Runtime, scans: ScanInlet, sink: ReaderSink): HidReader[] {
  const hid = rt.hid ?? new NodeHidBackend();
  const readers: HidReader[] = config.readers.map(
    (c) =>
      new HidReader({
        opts: { name: c.name, match: c.match, reconnectMs: c.reconnectMs },
        backend: hid,
        decoder: decoderFor(c),
        transform: transformFor(c),
        clock: rt.clock,
        sleep: rt.sleep,
        log: rt.log,
        onScan: (code) => scans.scanned(code, `hid:${c.name}`),
        onStatus: () => sink.noteReaders(readers.map((r) => r.status())),
      }),
  );
  return readers;
}
