import { z } from 'zod';
import { MAX_CODE_LENGTH } from '../domain/people/credential.js';
import { BootKeyboardDecoder } from './boot-keyboard-decoder.js';
import { applyTransforms, codeTransformsSchema } from './code-transforms.js';
import type { CodeTransform, ReportDecoder } from './hid-reader.js';
import { VendorAsciiDecoder } from './vendor-ascii-decoder.js';

/** A USB id as `timeclock hid list` prints it ("0c2e", "0x0c2e") or as a number. */
const usbId = z.union([
  z.number().int().min(0).max(0xffff),
  z
    .string()
    .regex(/^(0x)?[0-9a-f]{1,4}$/i, 'must be a USB id in hex, e.g. "0x0c2e"')
    .transform((s) => Number.parseInt(s.replace(/^0x/i, ''), 16)),
]);

export const readerConfigSchema = z
  .object({
    name: z.string().min(1).max(40),
    match: z.union([
      z.literal('auto-keyboard'),
      z
        .object({
          vendorId: usbId,
          productId: usbId,
          usagePage: usbId.optional(),
          serialNumber: z.string().min(1).optional(),
        })
        .strict(),
    ]),
    decoder: z.enum(['boot-keyboard', 'vendor-ascii']).default('boot-keyboard'),
    /**
     * boot-keyboard: report length ('auto' tells 8 from 9 by length; 9 = a report id byte first).
     * vendor-ascii: 9 means byte 0 is a report id; 'auto' and 8 mean every byte is data.
     */
    layout: z.union([z.literal('auto'), z.literal(8), z.literal(9)]).default('auto'),
    terminator: z.enum(['enter', 'tab']).default('enter'),
    transforms: codeTransformsSchema.default({}),
    reconnectMs: z.coerce.number().int().min(200).max(600_000).default(3_000),
  })
  .strict();
export type ReaderConfig = z.infer<typeof readerConfigSchema>;

/** The decoder a reader's configuration asks for (a fresh one: decoders keep state between reports). */
export function decoderFor(c: ReaderConfig): ReportDecoder {
  if (c.decoder === 'vendor-ascii') {
    return new VendorAsciiDecoder({
      reportIdByte: c.layout === 9,
      terminators: c.terminator === 'tab' ? '\t' : '\r\n',
      maxLength: MAX_CODE_LENGTH,
      endOfReportTerminates: false,
    });
  }
  return new BootKeyboardDecoder({ layout: c.layout, terminators: [c.terminator], maxKeys: MAX_CODE_LENGTH });
}

export function transformFor(c: ReaderConfig): CodeTransform {
  return (code) => applyTransforms(code, c.transforms);
}
