/**
 * Decoder for readers that send the code as ASCII bytes in raw vendor-defined reports, e.g.
 * `02 30 30 30 34 38 31 37` then `02 32 36 33 0d 00 00 00` for "0004817263" + CR with a report id
 * byte and NUL padding.
 *
 * Pure: no I/O, no clock. Rules:
 * - `reportIdByte`: the first byte of each report is a report id and is skipped.
 * - NUL (0x00) is padding, ignored wherever it is.
 * - Printable ASCII (0x20–0x7e) accumulates. A byte in `terminators` ends the code (terminators
 *   win over printable: a reader that ends with '?' can say so). Several terminator bytes in a row
 *   ("\r\n", even split across reports) end one code; a terminator with no code before it,
 *   otherwise, is an error.
 * - `endOfReportTerminates`: the end of each report also ends the code (one code per report); a
 *   report of only padding ends nothing.
 * - Any other byte (control characters, 0x7f–0xff): error at once; the code being assembled is
 *   dropped, everything up to the next terminator (or report end, with `endOfReportTerminates`) is
 *   discarded. More than `maxLength` characters: the same. One error per dropped code.
 * - A report with no data bytes at all: error 'empty report'.
 */
import { MAX_CODE_LENGTH } from '../domain/people/credential.js';
import type { DecodeEvent, ReportDecoder } from './boot-keyboard-decoder.js';

export type VendorAsciiOptions = {
  reportIdByte: boolean;
  /** Bytes that end a code, e.g. '\r\n'. ASCII only, no NUL. */
  terminators: string;
  /** Most characters one code may have; default MAX_CODE_LENGTH (64). */
  maxLength: number;
  endOfReportTerminates: boolean;
};

export const defaultVendorAsciiOptions: Readonly<VendorAsciiOptions> = Object.freeze({
  reportIdByte: false,
  terminators: '\r\n',
  maxLength: MAX_CODE_LENGTH,
  endOfReportTerminates: false,
});

const hex2 = (n: number): string => `0x${n.toString(16).padStart(2, '0')}`;

export class VendorAsciiDecoder implements ReportDecoder {
  private readonly opts: Readonly<VendorAsciiOptions>;
  private readonly terminatorBytes: ReadonlySet<number>;
  private buf: string[] = [];
  private dropping = false;
  /** The last meaningful byte ended a code (so the '\n' of '\r\n' is not a lone terminator). */
  private afterTerminator = false;
  private errorCount = 0;

  constructor(opts: Partial<VendorAsciiOptions> = {}) {
    const o: VendorAsciiOptions = { ...defaultVendorAsciiOptions, ...opts };
    if (!Number.isInteger(o.maxLength) || o.maxLength < 1)
      throw new RangeError(`maxLength must be a positive integer, not ${o.maxLength}`);
    const bytes = new Set<number>();
    for (const ch of o.terminators) {
      const b = ch.codePointAt(0) ?? 0;
      if (b === 0 || b > 0x7f)
        throw new RangeError(`terminator ${JSON.stringify(ch)} is not an ASCII byte other than NUL`);
      bytes.add(b);
    }
    if (bytes.size === 0 && !o.endOfReportTerminates)
      throw new RangeError('no terminator: give terminators or endOfReportTerminates');
    this.opts = Object.freeze(o);
    this.terminatorBytes = bytes;
  }

  get errors(): number {
    return this.errorCount;
  }

  reset(): void {
    this.buf = [];
    this.dropping = false;
    this.afterTerminator = false;
  }

  push(report: Uint8Array): DecodeEvent[] {
    const out: DecodeEvent[] = [];
    const start = this.opts.reportIdByte ? 1 : 0;
    if (report.length <= start) {
      this.fail(out, 'empty report');
      return out;
    }
    let sawData = false;
    for (let i = start; i < report.length; i++) {
      const b = report[i] ?? 0;
      if (b === 0) continue;
      sawData = true;
      if (this.terminatorBytes.has(b)) {
        this.terminate(out, false);
      } else if (b >= 0x20 && b <= 0x7e) {
        this.afterTerminator = false;
        this.append(String.fromCharCode(b), out);
      } else {
        this.afterTerminator = false;
        this.drop(out, `non-printable byte ${hex2(b)}; code dropped`);
      }
    }
    if (this.opts.endOfReportTerminates && sawData) this.terminate(out, true);
    return out;
  }

  private append(char: string, out: DecodeEvent[]): void {
    if (this.dropping) return;
    if (this.buf.length >= this.opts.maxLength) {
      this.drop(out, `more than ${this.opts.maxLength} characters without a terminator; code dropped`);
      return;
    }
    this.buf.push(char);
  }

  /** `endOfReport`: the implicit end of a report, which is never a lone terminator. */
  private terminate(out: DecodeEvent[], endOfReport: boolean): void {
    if (!this.dropping) {
      if (this.buf.length > 0) out.push({ type: 'code', code: this.buf.join('') });
      else if (!this.afterTerminator && !endOfReport) this.fail(out, 'terminator with no code');
    }
    this.buf = [];
    this.dropping = false;
    this.afterTerminator = true;
  }

  private drop(out: DecodeEvent[], reason: string): void {
    if (!this.dropping) this.fail(out, reason);
    this.buf = [];
    this.dropping = true;
  }

  private fail(out: DecodeEvent[], reason: string): void {
    this.errorCount++;
    out.push({ type: 'error', reason });
  }
}
