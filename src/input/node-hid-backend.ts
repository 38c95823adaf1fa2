import { createRequire } from 'node:module';
import { hidDeviceInfoSchema, type HidBackend, type HidDeviceInfo, type HidHandle } from './hid-backend.js';

type NodeHidModule = typeof import('node-hid');

/**
 * node-hid, loaded on first use (a CommonJS native module; only the agent process loads it), with
 * the Linux hidraw driver, which also reads keyboard-class readers. Loading fails with a clear
 * message when the driver libraries (libudev, libusb) are missing.
 */
export class NodeHidBackend implements HidBackend {
  private mod: NodeHidModule | null = null;

  private load(): NodeHidModule {
    if (this.mod) return this.mod;
    try {
      const mod = createRequire(import.meta.url)('node-hid') as NodeHidModule;
      if (process.platform === 'linux') mod.setDriverType('hidraw');
      this.mod = mod;
      return mod;
    } catch (e) {
      throw new Error(`cannot load node-hid (${(e as Error).message}); on Debian: apt-get install libudev1 libusb-1.0-0`);
    }
  }

  async devices(): Promise<HidDeviceInfo[]> {
    const raw: unknown[] = await this.load().devicesAsync();
    // Anything the native layer returns that does not look like a device is skipped, not trusted.
    return raw.flatMap((d) => {
      const r = hidDeviceInfoSchema.safeParse(d);
      return r.success ? [r.data] : [];
    });
  }

  async open(path: string): Promise<HidHandle> {
    const dev = await this.load().HIDAsync.open(path, { nonExclusive: true });
    return {
      onData: (fn) => dev.on('data', (b: Buffer) => fn(new Uint8Array(b))),
      onError: (fn) => dev.on('error', (e: unknown) => fn(e instanceof Error ? e : new Error(String(e)))),
      close: async () => {
        try {
          await dev.close();
        } catch {
          /* an unplugged device may already be gone */
        }
      },
    };
  }
}
