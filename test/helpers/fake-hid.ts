import type { HidBackend, HidDeviceInfo, HidHandle } from '../../src/input/hid-backend.js';

/**
 * A HID backend whose device can be plugged and unplugged by the test. Unplugging fails the open
 * handle with an error, as node-hid does when the device goes away.
 */
export class FakeHid implements HidBackend {
  private present: HidDeviceInfo | null = null;
  private handle: { data: ((r: Uint8Array) => void)[]; error: ((e: Error) => void)[]; open: boolean } | null = null;
  enumerations = 0;

  constructor(readonly device: HidDeviceInfo) {}

  plug(): void {
    this.present = this.device;
  }

  unplug(): void {
    this.present = null;
    const h = this.handle;
    this.handle = null;
    if (h?.open) for (const fn of h.error) fn(new Error('could not read from HID device'));
  }

  /** Sends reports as the device would; false when nothing has it open. */
  send(reports: Uint8Array[]): boolean {
    const h = this.handle;
    if (!h?.open) return false;
    for (const r of reports) for (const fn of h.data) fn(r);
    return true;
  }

  get isOpen(): boolean {
    return this.handle?.open === true;
  }

  async devices(): Promise<HidDeviceInfo[]> {
    this.enumerations++;
    return this.present ? [this.present] : [];
  }

  async open(path: string): Promise<HidHandle> {
    if (!this.present || this.present.path !== path) throw new Error(`cannot open device with path ${path}`);
    const h = { data: [] as ((r: Uint8Array) => void)[], error: [] as ((e: Error) => void)[], open: true };
    this.handle = h;
    return {
      onData: (fn) => h.data.push(fn),
      onError: (fn) => h.error.push(fn),
      close: async () => {
        h.open = false;
      },
    };
  }
}
