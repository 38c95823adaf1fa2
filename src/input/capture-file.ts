/**
 * Captures of HID report streams, for `timeclock hid replay` / `hid record`, fixtures and tests.
 *
 * Format, one report per line:
 *
 *     # a comment; blank lines are ignored too
 *     +8 00 00 1e 00 00 00 00 00   # optional "+<ms>" since the previous report, then hex bytes
 *     00001e0000000000             # spaces between bytes are optional
 *
 * `#` starts a comment anywhere on a line. A line that is not a report (odd number of hex digits,
 * a non-hex character, an offset with no bytes, a bad offset) is listed in `errors` with its line
 * number; the other lines still count. Pure: parsing and formatting text, no file access.
 */
import { mulberry32 } from '../domain/rate/seeded-random.js';
import type { Random } from '../domain/time/clock.js';
import type { DecodeEvent, ReportDecoder } from './boot-keyboard-decoder.js';
import { applyTransforms, type CodeTransforms } from './code-transforms.js';
import { MOD, USAGE, usageFor } from './hid-usage.js';

export type CaptureReport = { offsetMs: number; bytes: Uint8Array };
export type ParsedReport = CaptureReport & { line: number };
export type CaptureError = { line: number; reason: string };
export type ParsedCapture = { reports: ParsedReport[]; errors: CaptureError[] };

/** Longest report accepted on one line (USB HID reports are at most a few hundred bytes). */
export const MAX_CAPTURE_REPORT_BYTES = 4096;

export function parseCapture(text: string): ParsedCapture {
  const reports: ParsedReport[] = [];
  const errors: CaptureError[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const raw = lines[i] ?? '';
    const hash = raw.indexOf('#');
    let rest = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
    if (rest.length === 0) continue;
    let offsetMs = 0;
    if (rest.startsWith('+')) {
      const m = /^\+(\d+(?:\.\d+)?)(?=\s|$)/.exec(rest);
      if (m === null) {
        errors.push({ line, reason: `bad time offset ${JSON.stringify(rest.split(/\s+/)[0])} (want +<ms>)` });
        continue;
      }
      offsetMs = Number(m[1]);
      rest = rest.slice(m[0].length).trim();
      if (rest.length === 0) {
        errors.push({ line, reason: 'time offset with no report bytes' });
        continue;
      }
    }
    const parsed = parseHexBytes(rest);
    if (typeof parsed === 'string') errors.push({ line, reason: parsed });
    else reports.push({ offsetMs, bytes: parsed, line });
  }
  return { reports, errors };
}

/** Hex bytes, whitespace between them optional; a reason string when it is not that. */
function parseHexBytes(text: string): Uint8Array | string {
  const digits = text.replace(/\s+/g, '');
  const bad = /[^0-9a-fA-F]/.exec(digits);
  if (bad !== null) return `not a hex byte: ${JSON.stringify(bad[0])}`;
  if (digits.length % 2 !== 0) return 'odd number of hex digits';
  const n = digits.length / 2;
  if (n > MAX_CAPTURE_REPORT_BYTES) return `report longer than ${MAX_CAPTURE_REPORT_BYTES} bytes (${n})`;
  // Each token must be whole bytes: "0 0" is not "00".
  for (const token of text.split(/\s+/)) if (token.length % 2 !== 0) return `not whole bytes: ${JSON.stringify(token)}`;
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i++) bytes[i] = Number.parseInt(digits.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

const hex2 = (n: number): string => n.toString(16).padStart(2, '0');

/** One capture line: `+<ms> aa bb cc ...`. */
export function formatCaptureLine(offsetMs: number, bytes: Uint8Array): string {
  if (!Number.isFinite(offsetMs) || offsetMs < 0)
    throw new RangeError(`offset must be a finite number of ms >= 0, not ${offsetMs}`);
  return [`+${offsetMs}`, ...Array.from(bytes, hex2)].join(' ');
}

/** A whole capture, optionally under a `#` comment header, ending with a newline. */
export function formatCapture(reports: readonly CaptureReport[], header?: string): string {
  const head = header === undefined ? [] : header.split('\n').map((l) => `# ${l}`);
  return [...head, ...reports.map((r) => formatCaptureLine(r.offsetMs, r.bytes))].join('\n') + '\n';
}

/** What replaying gives for each event: the capture line (when known), time since start, the event. */
export type ReplayEvent = { line: number | null; atMs: number; event: DecodeEvent };

/**
 * Feeds `reports` through `decoder` in order; codes go through `transforms` when given (a refused
 * code becomes an error event 'code refused: …'). For `timeclock hid replay`.
 */
export function replayCapture(
  reports: readonly (CaptureReport & { line?: number })[],
  decoder: Pick<ReportDecoder, 'push'>,
  transforms?: CodeTransforms,
): ReplayEvent[] {
  const out: ReplayEvent[] = [];
  let atMs = 0;
  for (const r of reports) {
    atMs += r.offsetMs;
    for (const ev of decoder.push(r.bytes)) {
      let event = ev;
      if (ev.type === 'code' && transforms !== undefined) {
        const t = applyTransforms(ev.code, transforms);
        event = t.ok ? { type: 'code', code: t.code } : { type: 'error', reason: `code refused: ${t.reason}` };
      }
      out.push({ line: r.line ?? null, atMs, event });
    }
  }
  return out;
}

export type EncodeBootOptions = {
  layout: 8 | 9;
  terminator: 'enter' | 'tab';
  /** Press the next key before the previous ones are released (and sometimes two in one report). */
  rollover?: boolean;
  /** Uniform [0, 1); decides timing, rollover, which shift key, repeated reports. Default: a fixed-seed generator. */
  random?: Random;
  /** Report id byte of the 9-byte layout (default 1). */
  reportId?: number;
  /** Sometimes send the same report again, as readers polled faster than keys change do. */
  repeats?: boolean;
};

const SHIFT = MOD.leftShift | MOD.rightShift;
const MAX_SLOTS = 6;

/**
 * A realistic stream of boot-protocol reports typing `code` and then the terminator: presses and
 * releases, Shift in the modifier byte (changed in a report of its own or together with the key),
 * optional roll-over (keys held while the next ones go down, up to six, released in any order;
 * sometimes two new keys in one report), optional repeated reports, random gaps of 0–24 ms.
 * Throws a RangeError for a character no key in src/input/hid-usage.ts types.
 */
export function encodeBootReports(code: string, opts: EncodeBootOptions): CaptureReport[] {
  const rnd = opts.random ?? mulberry32(0x5eed);
  const rollover = opts.rollover ?? false;
  const reportId = opts.reportId ?? 1;
  const keys = [...code].map((ch) => {
    const k = usageFor(ch);
    if (k === null) throw new RangeError(`no key types ${JSON.stringify(ch)}`);
    return k;
  });
  keys.push({ usage: opts.terminator === 'enter' ? USAGE.enter : USAGE.tab, shift: false });

  const out: CaptureReport[] = [];
  let held: number[] = [];
  let mod = 0;
  const pick = (n: number): number => Math.min(n - 1, Math.floor(rnd() * n));
  const emit = (): void => {
    const body = [mod, 0, ...held, ...new Array<number>(MAX_SLOTS - held.length).fill(0)];
    const bytes = Uint8Array.from(opts.layout === 9 ? [reportId, ...body] : body);
    out.push({ offsetMs: pick(25), bytes });
    if (opts.repeats && rnd() < 0.3) out.push({ offsetMs: pick(25), bytes: bytes.slice() });
  };
  const release = (usage: number): void => {
    held = held.filter((u) => u !== usage);
    emit();
  };

  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (k === undefined) break;
    // The same key cannot go down again while it is still down.
    if (held.includes(k.usage)) release(k.usage);
    if (!rollover) {
      if (held.length > 0) {
        held = [];
        emit();
      }
    } else {
      while (held.length >= MAX_SLOTS - 1 || (held.length > 0 && rnd() < 0.5)) {
        const u = held[pick(held.length)];
        if (u === undefined) break;
        release(u);
      }
    }
    if (k.shift !== ((mod & SHIFT) !== 0)) {
      mod = k.shift ? (rnd() < 0.5 ? MOD.leftShift : MOD.rightShift) : 0;
      if (rnd() < 0.7) emit(); // Shift alone first, as a person (or most readers) would
    }
    held.push(k.usage);
    // Roll-over within one report: the next key goes down in the same report.
    const next = keys[i + 1];
    if (
      rollover &&
      next !== undefined &&
      next.shift === k.shift &&
      !held.includes(next.usage) &&
      held.length < MAX_SLOTS &&
      rnd() < 0.25
    ) {
      held.push(next.usage);
      i++;
    }
    emit();
  }
  // Let go of everything.
  if (held.length > 0 || mod !== 0) {
    held = [];
    mod = 0;
    emit();
  }
  return out;
}
