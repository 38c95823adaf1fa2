import { createRequire } from 'node:module';
import { describeHidLoadError, HID_UNAVAILABLE, HidUnavailableError } from './hid-load-error.js';
import { hidDeviceInfoSchema, type HidBackend, type HidDeviceInfo, type HidHandle } from './hid-backend.js';

type NodeHidModule = typeof import('node-hid');

/**
 * node-hid, loaded on first use (a CommonJS native module; only the agent process loads it), with
 * the Linux hidraw driver, which also reads keyboard-class readers. node-hid loads its native
 * binding lazily (on the first devices() or open()), so it is loaded here, at once, where a
 * missing or broken library (the hidraw prebuild links libudev.so.1 and libusb-1.0.so.0) becomes
 * one HidUnavailableError line naming it and its Debian package. Not cached: installing the
 * library fixes a running agent at its next look for the reader.
 */
export class NodeHidBackend implements HidBackend {
  private mod: NodeHidModule | null = null;

  private load(): NodeHidModule {
    if (this.mod) return this.mod;
    try {
      const mod = createRequire(import.meta.url)('node-hid') as NodeHidModule;
      if (process.platform === 'linux') mod.setDriverType('hidraw');
      mod.getHidapiVersion(); // dlopens the binding now, inside this try
      this.mod = mod;
      return mod;
    } catch (e) {
      const first = String((e as Error)?.message ?? e).split('\n')[0];
      throw new HidUnavailableError(describeHidLoadError(e) ?? `${HID_UNAVAILABLE}: cannot load node-hid (${first})`);
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
