/**
 * Reads any line of a Portaria 671 AFD by its type (docs/afd-layout.md): length, type, each field's
 * form, and the CRC-16 of types 1 to 5. Types 2 to 6 are read here; the header, the trailer and the
 * type 7 mark have their own modules. Hash chains and NSR order span lines: verify.ts checks them.
 */
import type { CrcVariant } from './crc16.js';
import { crc16Kermit, crcField, crcVariantOf } from './crc16.js';
import { dateOf, isAfdDateTime, readCpf12, readPaddedId } from './fields.js';
import { parseHeader, readTaxId, type HeaderFields, type TaxId } from './header.js';
import { parseMark, type Mark } from './mark.js';
import { parseTrailer, signatureKind, TRAILER_LENGTH, type TypeCounts } from './trailer.js';

export type EmployerRecord = {
  type: 2;
  nsr: number;
  recordedAt: string;
  responsibleCpf: string;
  employer: TaxId;
  cnoOrCaepf: string | null;
  employerName: string;
  workplace: string;
  crc: CrcVariant;
};
/** A REP-C/REP-A mark; cpf null when the field is all zeros. */
export type PunchRecord = { type: 3; nsr: number; markedAt: string; cpf: string | null; crc: CrcVariant };
export type ClockRecord = {
  type: 4;
  nsr: number;
  before: string;
  after: string;
  responsibleCpf: string;
  crc: CrcVariant;
};
export type EmployeeRecord = {
  type: 5;
  nsr: number;
  recordedAt: string;
  operation: 'I' | 'A' | 'E';
  cpf: string;
  name: string;
  otherData: string;
  responsibleCpf: string;
  crc: CrcVariant;
};
/** Event codes: 01-06 REP-C only, 02 power back (REP-C or REP-P), 07/08 REP-P service available/unavailable. */
export type EventRecord = { type: 6; nsr: number; recordedAt: string; event: string };
export type MarkRecord = { type: 7; nsr: number; mark: Mark };

export type AfdRecord =
  | { type: 1; header: HeaderFields; crc: CrcVariant }
  | EmployerRecord
  | PunchRecord
  | ClockRecord
  | EmployeeRecord
  | EventRecord
  | MarkRecord
  | { type: 9; counts: TypeCounts }
  | { type: 'signature'; kind: 'p7s' | 'unsigned' };

export type ParsedRecord = { ok: true; record: AfdRecord } | { ok: false; problem: string };

export const RECORD_LENGTHS = { 1: 302, 2: 331, 3: 50, 4: 73, 5: 118, 6: 36, 7: 137, 9: 64 } as const;

class FieldProblem extends Error {}

/** Field reader over one line, 1-based inclusive positions as the Annex numbers them. */
function fieldsOf(line: string) {
  const at = (from: number, to: number): string => line.slice(from - 1, to);
  return {
    at,
    nsr(): number {
      const f = at(1, 9);
      if (!/^\d{9}$/.test(f) || f === '000000000') throw new FieldProblem(`NSR "${f}" is not 9 digits from 1`);
      return Number(f);
    },
    dateTime(from: number, what: string): string {
      const f = at(from, from + 23);
      if (!isAfdDateTime(f)) throw new FieldProblem(`${what} "${f}" is not a valid AAAA-MM-ddThh:mm:00ZZZZZ`);
      return f;
    },
    cpf(from: number, to: number, what: string): string {
      const cpf = readPaddedId(at(from, to), /^\d{11}$/);
      if (cpf === null) throw new FieldProblem(`${what} "${at(from, to)}" is not an 11-digit CPF`);
      return cpf;
    },
    crc(from: number): CrcVariant {
      const body = at(1, from - 1);
      const variant = crcVariantOf(body, at(from, from + 3));
      if (variant === null)
        throw new FieldProblem(
          `CRC "${at(from, from + 3)}" does not match the record (CRC-16/KERMIT gives ${crcField(crc16Kermit(body))})`,
        );
      return variant;
    },
  };
}

function employer(line: string): EmployerRecord {
  const f = fieldsOf(line);
  const employerId = readTaxId(f.at(49, 49), f.at(50, 63));
  if (employerId === null)
    throw new FieldProblem(`employer identifier "${f.at(50, 63)}" is not of kind "${f.at(49, 49)}"`);
  const cno = f.at(64, 77);
  const cnoOrCaepf = /^(0+| +)$/.test(cno) ? null : readPaddedId(cno, /^(\d{12}|\d{14})$/);
  if (cnoOrCaepf === null && !/^(0+| +)$/.test(cno))
    throw new FieldProblem(`CNO/CAEPF "${cno}" is not 12 or 14 digits`);
  return {
    type: 2,
    nsr: f.nsr(),
    recordedAt: f.dateTime(11, 'recording date-time'),
    responsibleCpf: f.cpf(35, 48, 'responsible CPF'),
    employer: employerId,
    cnoOrCaepf,
    employerName: f.at(78, 227).trimEnd(),
    workplace: f.at(228, 327).trimEnd(),
    crc: f.crc(328),
  };
}

function punch(line: string): PunchRecord {
  const f = fieldsOf(line);
  const cpf = readCpf12(f.at(35, 46));
  if (cpf === null) throw new FieldProblem(`CPF "${f.at(35, 46)}" is not "0" + 11 digits or 11 digits + a space`);
  return {
    type: 3,
    nsr: f.nsr(),
    markedAt: f.dateTime(11, 'mark date-time'),
    cpf: /^0+$/.test(cpf) ? null : cpf,
    crc: f.crc(47),
  };
}

function clock(line: string): ClockRecord {
  const f = fieldsOf(line);
  return {
    type: 4,
    nsr: f.nsr(),
    before: f.dateTime(11, 'date-time before the adjustment'),
    after: f.dateTime(35, 'adjusted date-time'),
    responsibleCpf: f.cpf(59, 69, 'responsible CPF'),
    crc: f.crc(70),
  };
}

function employee(line: string): EmployeeRecord {
  const f = fieldsOf(line);
  const operation = f.at(35, 35);
  if (operation !== 'I' && operation !== 'A' && operation !== 'E')
    throw new FieldProblem(`operation "${operation}" is not I, A or E`);
  const cpf = readCpf12(f.at(36, 47));
  if (cpf === null)
    throw new FieldProblem(`employee CPF "${f.at(36, 47)}" is not "0" + 11 digits or 11 digits + a space`);
  return {
    type: 5,
    nsr: f.nsr(),
    recordedAt: f.dateTime(11, 'recording date-time'),
    operation,
    cpf,
    name: f.at(48, 99).trimEnd(),
    otherData: f.at(100, 103).trimEnd(),
    responsibleCpf: f.cpf(104, 114, 'responsible CPF'),
    crc: f.crc(115),
  };
}

function event(line: string): EventRecord {
  const f = fieldsOf(line);
  const code = f.at(35, 36);
  if (!/^0[1-8]$/.test(code)) throw new FieldProblem(`event code "${code}" is not 01-08`);
  return { type: 6, nsr: f.nsr(), recordedAt: f.dateTime(11, 'recording date-time'), event: code };
}

function mark(line: string): MarkRecord {
  const parsed = parseMark(line);
  if (!parsed.ok) throw new FieldProblem(parsed.problem);
  const m = parsed.mark;
  // parseMark checks the DH shape; a 13th month or a 25th hour is checked here.
  if (!isAfdDateTime(m.markedAt)) throw new FieldProblem(`mark date-time "${m.markedAt}" is not a valid date and time`);
  if (!isAfdDateTime(m.recordedAt))
    throw new FieldProblem(`recording date-time "${m.recordedAt}" is not a valid date and time`);
  return { type: 7, nsr: m.nsr, mark: m };
}

const readers = { '2': employer, '3': punch, '4': clock, '5': employee, '6': event, '7': mark } as const;

/** Reads one line (without its CRLF). Unknown types and malformed fields come back as a problem. */
export function parseRecord(line: string): ParsedRecord {
  const signature = signatureKind(line);
  if (signature === 'p7s' || signature === 'unsigned')
    return { ok: true, record: { type: 'signature', kind: signature } };
  if (line.startsWith('999999999') && line.length === TRAILER_LENGTH) {
    const t = parseTrailer(line);
    return t.ok ? { ok: true, record: { type: 9, counts: t.counts } } : t;
  }
  if (line.length < 10)
    return { ok: false, problem: `a record has its type at position 10, this line has ${line.length} characters` };
  const type = line.charAt(9);
  if (type === '1' && line.startsWith('000000000')) {
    const h = parseHeader(line);
    return h.ok ? { ok: true, record: { type: 1, header: h.header, crc: h.crc } } : h;
  }
  if (!Object.hasOwn(readers, type)) return { ok: false, problem: `unknown record type "${type}" at position 10` };
  const key = type as keyof typeof readers;
  const length = RECORD_LENGTHS[Number(key) as 2 | 3 | 4 | 5 | 6 | 7];
  if (line.length !== length)
    return { ok: false, problem: `a type ${type} record has ${length} characters, this one ${line.length}` };
  try {
    return { ok: true, record: readers[key](line) };
  } catch (e) {
    if (e instanceof FieldProblem) return { ok: false, problem: e.message };
    throw e;
  }
}

/** The local date a record is about (the mark's for 3 and 7, the recording's otherwise), for range checks. */
export function recordDate(r: AfdRecord): string | null {
  switch (r.type) {
    case 2:
    case 5:
    case 6:
      return dateOf(r.recordedAt);
    case 3:
      return dateOf(r.markedAt);
    case 4:
      return dateOf(r.after);
    case 7:
      return dateOf(r.mark.markedAt);
    default:
      return null;
  }
}
