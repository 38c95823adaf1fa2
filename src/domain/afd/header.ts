/**
 * The AFD type "1" record, the header (docs/afd-layout.md "Type 1"): 302 characters, the first line
 * of every AFD. Pure; the builder refuses what the layout cannot carry instead of cutting it.
 *
 *   001-009 "000000000" · 010 "1" · 011 employer kind (1 CNPJ, 2 CPF) · 012-025 CNPJ/CPF
 *   026-039 CNO or CAEPF · 040-189 name (A) · 190-206 REP number (INPI registration for REP-P)
 *   207-216 first date (D) · 217-226 last date (D) · 227-250 generated at (DH) · 251-253 version
 *   254 developer kind · 255-268 developer CNPJ/CPF · 269-298 model (REP-C only) · 299-302 CRC-16
 */
import { normalizeCnpj } from '../people/cnpj.js';
import { isValidCpf } from '../people/cpf.js';
import { crc16Kermit, crcField, crcVariantOf, type CrcVariant } from './crc16.js';
import { alpha, isAfdDate, isAfdDateTime, numeric, readPaddedId } from './fields.js';

export const HEADER_LENGTH = 302;
/** What the Annex text we read says; "004" is the gov.br revision other systems write since 2026-07-31. */
export const LAYOUT_VERSION = '003';
export const LAYOUT_VERSIONS = ['003', '004'] as const;
export type LayoutVersion = (typeof LAYOUT_VERSIONS)[number];

export type TaxId = { kind: 'cnpj' | 'cpf'; id: string };

export type HeaderFields = {
  employer: TaxId;
  /** CNO (12 digits) or CAEPF (14 digits); null when the employer has neither. */
  cnoOrCaepf: string | null;
  employerName: string;
  /** The REP-P's INPI registration, digits only; null before it is registered. */
  repRegistration: string | null;
  /** AAAA-MM-dd, the first and last day of the records in the file. */
  firstDate: string;
  lastDate: string;
  /** AFD date-time the file was generated (afdDateTime). */
  generatedAt: string;
  /** Null: not named (no developer CNPJ configured): kind "1" and 14 zeros, read back as an empty N field. */
  developer: TaxId | null;
  /** Blank for REP-P; the Annex asks for it only from REP-C. */
  model?: string;
  layoutVersion?: LayoutVersion;
};

export type ParsedHeader = { ok: true; header: HeaderFields; crc: CrcVariant } | { ok: false; problem: string };

const CNPJ_FORM = /^[0-9A-Z]{12}\d{2}$/;
const CPF_FORM = /^\d{11}$/;

/** The 14-character identifier field: a CNPJ as it is (alphanumeric since July 2026), a CPF zero-padded. */
function taxIdField(t: TaxId, what: string): string {
  if (t.kind === 'cnpj') {
    const cnpj = normalizeCnpj(t.id);
    if (cnpj === null) throw new RangeError(`${what} is not a valid CNPJ: "${t.id}"`);
    return cnpj;
  }
  const cpf = t.id.replace(/[.-]/g, '');
  if (!isValidCpf(cpf)) throw new RangeError(`${what} is not a valid CPF: "${t.id}"`);
  return numeric(cpf, 14, what);
}

const kindDigit = (t: TaxId): string => (t.kind === 'cnpj' ? '1' : '2');

export function buildHeader(h: HeaderFields): string {
  if (!isAfdDate(h.firstDate) || !isAfdDate(h.lastDate))
    throw new RangeError(`not AAAA-MM-dd dates: ${h.firstDate} / ${h.lastDate}`);
  if (h.firstDate > h.lastDate) throw new RangeError(`first date ${h.firstDate} is after last date ${h.lastDate}`);
  if (!isAfdDateTime(h.generatedAt)) throw new RangeError(`not an AFD date-time: ${h.generatedAt}`);
  if (h.cnoOrCaepf !== null && !/^(\d{12}|\d{14})$/.test(h.cnoOrCaepf))
    throw new RangeError(`a CNO is 12 digits and a CAEPF 14: "${h.cnoOrCaepf}"`);
  const version = h.layoutVersion ?? LAYOUT_VERSION;
  const body =
    '000000000' +
    '1' +
    kindDigit(h.employer) +
    taxIdField(h.employer, 'the employer') +
    // Absent CNO/CAEPF and REP number are zeros, as real REP files write them (docs/afd-layout.md).
    numeric(h.cnoOrCaepf ?? '', 14, 'the CNO/CAEPF') +
    alpha(h.employerName, 150, "the employer's name") +
    numeric(h.repRegistration ?? '', 17, 'the INPI registration') +
    h.firstDate +
    h.lastDate +
    h.generatedAt +
    version +
    (h.developer === null ? '1' + '0'.repeat(14) : kindDigit(h.developer) + taxIdField(h.developer, 'the developer')) +
    alpha(h.model ?? '', 30, 'the model');
  return body + crcField(crc16Kermit(body));
}

/** Reads a 14-character identifier field of the given kind digit; null when it is not that kind's form. */
export function readTaxId(kind: string, field: string): TaxId | null {
  if (kind === '1') return CNPJ_FORM.test(field) ? { kind: 'cnpj', id: field } : null;
  if (kind === '2') {
    const cpf = readPaddedId(field, CPF_FORM);
    return cpf === null ? null : { kind: 'cpf', id: cpf };
  }
  return null;
}

/** An optional N field left empty: all zeros or all spaces. */
const isEmptyField = (field: string): boolean => /^(0+| +)$/.test(field);

/** Reads a header line back, checking each field's form and the CRC (KERMIT, or MODBUS as REP-C write it). */
export function parseHeader(line: string): ParsedHeader {
  const fail = (problem: string): ParsedHeader => ({ ok: false, problem });
  if (line.length !== HEADER_LENGTH)
    return fail(`a header (type 1) has ${HEADER_LENGTH} characters, this one ${line.length}`);
  const at = (from: number, to: number): string => line.slice(from - 1, to);
  if (at(1, 9) !== '000000000') return fail(`a header starts with "000000000", this one "${at(1, 9)}"`);
  if (at(10, 10) !== '1') return fail(`record type at position 10 is "${at(10, 10)}", not "1"`);
  const employer = readTaxId(at(11, 11), at(12, 25));
  if (employer === null)
    return fail(
      `employer identifier "${at(12, 25)}" is not a ${at(11, 11) === '2' ? 'CPF' : 'CNPJ'} of kind "${at(11, 11)}"`,
    );
  const cno = at(26, 39);
  const cnoOrCaepf = isEmptyField(cno) ? null : readPaddedId(cno, /^(\d{12}|\d{14})$/);
  if (cnoOrCaepf === null && !isEmptyField(cno)) return fail(`CNO/CAEPF "${cno}" is not 12 or 14 digits`);
  const rep = at(190, 206);
  if (!/^\d{17}$/.test(rep) && !/^ {17}$/.test(rep)) return fail(`REP number "${rep}" is not 17 digits`);
  const [firstDate, lastDate, generatedAt] = [at(207, 216), at(217, 226), at(227, 250)];
  if (!isAfdDate(firstDate)) return fail(`first date "${firstDate}" is not a valid AAAA-MM-dd`);
  if (!isAfdDate(lastDate)) return fail(`last date "${lastDate}" is not a valid AAAA-MM-dd`);
  if (firstDate > lastDate) return fail(`first date ${firstDate} is after last date ${lastDate}`);
  if (!isAfdDateTime(generatedAt))
    return fail(`generation date-time "${generatedAt}" is not a valid AAAA-MM-ddThh:mm:00ZZZZZ`);
  const version = at(251, 253);
  if (!(LAYOUT_VERSIONS as readonly string[]).includes(version))
    return fail(`layout version "${version}" is not ${LAYOUT_VERSIONS.join(' or ')}`);
  const developer = readTaxId(at(254, 254), at(255, 268));
  if (developer === null)
    return fail(
      `developer identifier "${at(255, 268)}" is not a ${at(254, 254) === '2' ? 'CPF' : 'CNPJ'} of kind "${at(254, 254)}"`,
    );
  const crc = crcVariantOf(at(1, 298), at(299, 302));
  if (crc === null)
    return fail(
      `CRC "${at(299, 302)}" does not match the record (CRC-16/KERMIT gives ${crcField(crc16Kermit(at(1, 298)))})`,
    );
  return {
    ok: true,
    crc,
    header: {
      employer,
      cnoOrCaepf,
      employerName: at(40, 189).trimEnd(),
      repRegistration: /^(0{17}| {17})$/.test(rep) ? null : rep,
      firstDate,
      lastDate,
      generatedAt,
      developer,
      model: at(269, 298).trimEnd(),
      layoutVersion: version as LayoutVersion,
    },
  };
}
