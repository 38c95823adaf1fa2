import { z } from 'zod';

/** One HID device as enumeration reports it (validated: the native layer is a boundary too). */
export const hidDeviceInfoSchema = z.object({
  vendorId: z.number().int().min(0).max(0xffff),
  productId: z.number().int().min(0).max(0xffff),
  path: z.string().optional(),
  serialNumber: z.string().optional(),
  manufacturer: z.string().optional(),
  product: z.string().optional(),
  release: z.number().int().optional(),
  interface: z.number().int().optional(),
  usagePage: z.number().int().optional(),
  usage: z.number().int().optional(),
});
export type HidDeviceInfo = z.infer<typeof hidDeviceInfoSchema>;

/** An open device: reports arrive as 'data'; an unplug shows up as 'error' (node-hid has no plug events). */
export type HidHandle = {
  onData(fn: (report: Uint8Array) => void): void;
  onError(fn: (e: Error) => void): void;
  close(): Promise<void>;
};

/** The small surface the readers need; node-hid behind it in production, a fake in tests. */
export type HidBackend = {
  devices(): Promise<HidDeviceInfo[]>;
  open(path: string): Promise<HidHandle>;
};

export const hex4 = (n: number) => n.toString(16).padStart(4, '0');
