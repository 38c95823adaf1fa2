/**
 * What a configured HID reader reports for status, from input/hid-reader.ts to the screens. Here so
 * that the store, which keeps the last one in settings, and the input layer share one declaration
 * (store may not import input).
 */
export type ReaderStatus = {
  name: string;
  connected: boolean;
  device: string | null;
  connectedSince: number | null;
  lastScanAt: number | null;
  scans: number;
  /** reports or codes dropped as garbage */
  errors: number;
  disconnects: number;
  lastDisconnectAt: number | null;
  lastError: string | null;
};
