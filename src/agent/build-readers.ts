/**
 * One HID reader per configured one (node-hid unless the runtime brings a backend). Their scans and
 * state go to the agent, which exists only once they are built: `sink` is looked up at each call.
 */
import type { Config } from '../config.js';
import { HidReader } from '../input/hid-reader.js';
import { NodeHidBackend } from '../input/node-hid-backend.js';
import { decoderFor, transformFor } from '../input/reader-config.js';
import type { Runtime } from './runtime.js';

export type ReaderSink = { scanned(code: string, source: string): Promise<unknown>; noteReaders(): void };

export function buildReaders(config: Config, rt: Runtime, sink: () => ReaderSink | null): HidReader[] {
  const hid = rt.hid ?? new NodeHidBackend();
  return config.readers.map(
    (c) =>
      new HidReader(
        { name: c.name, match: c.match, reconnectMs: c.reconnectMs },
        hid,
        decoderFor(c),
        transformFor(c),
        rt.clock,
        rt.sleep,
        rt.log,
        (code) => void sink()?.scanned(code, `hid:${c.name}`),
        () => sink()?.noteReaders(),
      ),
  );
}
