import type { Clock, Sleep } from '../domain/time/clock.js';
import type { ReportDecoder } from './boot-keyboard-decoder.js';
import { hex4, type HidBackend, type HidDeviceInfo, type HidHandle } from './hid-backend.js';

export type { ReportDecoder } from './boot-keyboard-decoder.js';
export type CodeTransform = (code: string) => { ok: true; code: string } | { ok: false; reason: string };

/** Which device is this reader: by ids (and optionally usage page or serial), or any keyboard-class device. */
export type ReaderMatch =
  { vendorId: number; productId: number; usagePage?: number; serialNumber?: string } | 'auto-keyboard';

import type { ReaderStatus } from '../domain/punch/reader-status.js';
export type { ReaderStatus };

/** Reports further apart than this start a new scan. */
export const QUIET_RESET_MS = 300;

export type ReaderLog = {
  info(m: string, f?: Record<string, unknown>): void;
  warn(m: string, f?: Record<string, unknown>): void;
};

export function matches(m: ReaderMatch, d: HidDeviceInfo): boolean {
  if (m === 'auto-keyboard') return d.usagePage === 0x01 && d.usage === 0x06;
  return (
    d.vendorId === m.vendorId &&
    d.productId === m.productId &&
    (m.usagePage === undefined || d.usagePage === m.usagePage) &&
    (m.serialNumber === undefined || d.serialNumber === m.serialNumber)
  );
}

export function describeDevice(d: HidDeviceInfo): string {
  return `${hex4(d.vendorId)}:${hex4(d.productId)}${d.product ? ` ${d.product}` : ''}${d.path ? ` (${d.path})` : ''}`;
}

/** What a HID reader is built from (agent/capture/build-readers.ts). */
export type HidReaderDeps = {
  opts: { name: string; match: ReaderMatch; reconnectMs: number };
  backend: HidBackend;
  decoder: ReportDecoder;
  transform: CodeTransform;
  clock: Clock;
  sleep: Sleep;
  log: ReaderLog;
  onScan: (code: string) => void;
  onStatus?: (s: ReaderStatus) => void;
};

/**
 * One configured HID reader. node-hid has no plug events and enumerating is costly, so: open the
 * device when it is there; an error on the open handle means it was unplugged — close it, say so,
 * and look for it again every `reconnectMs` until it is back, without restarting anything.
 */
export class HidReader {
  private running = false;
  private readonly stopCtl = new AbortController();
  private handle: HidHandle | null = null;
  private loop: Promise<void> = Promise.resolve();
  private readonly st: ReaderStatus;
  private lastReportAt = 0;

  private readonly opts: { name: string; match: ReaderMatch; reconnectMs: number };
  private readonly backend: HidBackend;
  private readonly decoder: ReportDecoder;
  private readonly transform: CodeTransform;
  private readonly clock: Clock;
  private readonly sleep: Sleep;
  private readonly log: ReaderLog;
  private readonly onScan: (code: string) => void;
  private readonly onStatus: (s: ReaderStatus) => void;

  constructor(d: HidReaderDeps) {
    const { opts } = d;
    this.opts = opts;
    this.backend = d.backend;
    this.decoder = d.decoder;
    this.transform = d.transform;
    this.clock = d.clock;
    this.sleep = d.sleep;
    this.log = d.log;
    this.onScan = d.onScan;
    this.onStatus = d.onStatus ?? (() => {});
    this.st = {
      name: opts.name,
      connected: false,
      device: null,
      connectedSince: null,
      lastScanAt: null,
      scans: 0,
      errors: 0,
      disconnects: 0,
      lastDisconnectAt: null,
      lastError: null,
    };
  }

  status(): ReaderStatus {
    return { ...this.st };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopCtl.abort();
    await this.handle?.close();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const device = (await this.backend.devices()).find((d) => matches(this.opts.match, d) && d.path !== undefined);
        if (device?.path) await this.readUntilGone(device, device.path);
      } catch (e) {
        this.st.lastError = (e as Error).message;
        this.changed();
      }
      if (this.running) await this.sleep(this.opts.reconnectMs, this.stopCtl.signal);
    }
  }

  private async readUntilGone(device: HidDeviceInfo, path: string): Promise<void> {
    const handle = await this.backend.open(path);
    this.handle = handle;
    this.decoder.reset(); // half a code from before the unplug is not the start of the next one
    Object.assign(this.st, {
      connected: true,
      device: describeDevice(device),
      connectedSince: this.clock.now(),
      lastError: null,
    });
    this.log.info('badge reader connected', { reader: this.opts.name, device: this.st.device });
    this.changed();
    await new Promise<void>((resolve) => {
      handle.onData((report) => this.onReport(report));
      handle.onError((e) => {
        if (this.running) {
          Object.assign(this.st, {
            connected: false,
            connectedSince: null,
            lastDisconnectAt: this.clock.now(),
            lastError: e.message,
          });
          this.st.disconnects++;
          this.log.warn('badge reader disconnected; looking for it again', {
            reader: this.opts.name,
            error: e.message,
          });
          this.changed();
        }
        resolve();
      });
      this.stopCtl.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    this.handle = null;
    await handle.close();
  }

  private onReport(report: Uint8Array): void {
    // A reader sends a scan as one burst of reports; after a quiet moment, whatever half code or
    // garbage came before is not the start of the next scan.
    const now = this.clock.now();
    if (now - this.lastReportAt > QUIET_RESET_MS) this.decoder.reset();
    this.lastReportAt = now;
    for (const ev of this.decoder.push(report)) {
      if (ev.type === 'error') {
        this.garbage(ev.reason);
        continue;
      }
      const t = this.transform(ev.code);
      if (!t.ok) {
        this.garbage(`code refused: ${t.reason}`);
        continue;
      }
      this.st.scans++;
      this.st.lastScanAt = this.clock.now();
      this.changed();
      this.onScan(t.code);
    }
  }

  private garbage(reason: string): void {
    this.st.errors++;
    this.st.lastError = reason;
    this.log.warn('badge reader report dropped', { reader: this.opts.name, reason });
    this.changed();
  }

  private changed(): void {
    this.onStatus(this.status());
  }
}
