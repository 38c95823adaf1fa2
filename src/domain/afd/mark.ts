/**
 * The AFD type "7" record (Portaria MTP 671/2021, Annex V: "marcação de ponto para REP-P"), the
 * line the terminal's evidence journal keeps for every punch, and its SHA-256 chain. Pure: the
 * hash function is passed in (domain does no I/O and imports nothing), as the clock is elsewhere.
 *
 *   pos.     size  field
 *   001-009     9  NSR, zero-padded
 *   010-010     1  record type "7"
 *   011-034    24  date and time of the mark, AAAA-MM-ddThh:mm:00ZZZZZ (seconds fixed at 00)
 *   035-046    12  the worker's CPF, zero-padded to 12
 *   047-070    24  date and time the record was written, same format
 *   071-072     2  collector: 01 mobile app, 02 browser, 03 desktop app, 04 electronic device, 05 other
 *   073-073     1  0 on-line, 1 off-line (collectedOnline below)
 *   074-137    64  SHA-256 of fields 1-7 of this record followed by field 8 of the previous type 7
 *
 * Our choices where the text is silent (docs/evidence-journal.md): lowercase hex; the first record
 * of a journal hashes its fields with nothing after them; a CPF not known at capture is twelve zeros.
 */

/** SHA-256 of a string's ISO 8859-1 bytes (the AFD's encoding), as 64 lowercase hex digits. */
export type Sha256Hex = (text: string) => string;

export const MARK_LENGTH = 137;
export const MARK_BODY_LENGTH = 73;
export const COLLECTOR_DEVICE = '04';
export const NSR_MAX = 999_999_999;

export type MarkFields = {
  nsr: number;
  /** AFD date-time of the mark (afdDateTime). */
  markedAt: string;
  /** 11 digits, or null when the worker was not known at capture. */
  cpf: string | null;
  /** AFD date-time the record was written. */
  recordedAt: string;
  /** Two digits (COLLECTOR_DEVICE for this terminal). */
  collector: string;
  online: boolean;
};

export type Mark = MarkFields & { hash: string; line: string };

/**
 * Field 7 under our reading of who the REP-P is (docs/evidence-journal.md, "Who the REP-P is"):
 * the program on this terminal is the REP-P and its reader and keypad are its collector, so a
 * mark is on-line when the REP-P recorded it in its ARP (the journal) as it was taken, and
 * off-line when it reached the journal later (Annex IX item 5: "enviadas posteriormente"), as the
 * punches of an older version journalled at the upgrade. Whether the T&A service answered is no
 * part of it: the service is not the REP-P. Instants in UTC ms.
 */
export function collectedOnline(markedAtMs: number, recordedAtMs: number): boolean {
  return recordedAtMs === markedAtMs;
}

/** AAAA-MM-ddThh:mm:00ZZZZZ from a local date, a local HH:MM and the zone's offset in minutes. */
export function afdDateTime(localDate: string, localTime: string, offsetMinutes: number): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(localDate) || !/^\d{2}:\d{2}$/.test(localTime))
    throw new RangeError(`not a local date and time: ${localDate} ${localTime}`);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  return `${localDate}T${localTime}:00${zone}`;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00[+-]\d{4}$/;

/** Fields 1 to 7: what the hash covers, before the previous record's hash. */
export function markBody(f: MarkFields): string {
  if (!Number.isInteger(f.nsr) || f.nsr < 1 || f.nsr > NSR_MAX) throw new RangeError(`NSR out of range: ${f.nsr}`);
  if (!DATE_TIME.test(f.markedAt) || !DATE_TIME.test(f.recordedAt))
    throw new RangeError(`not an AFD date-time: ${f.markedAt} / ${f.recordedAt}`);
  if (f.cpf !== null && !/^\d{11}$/.test(f.cpf)) throw new RangeError('a CPF is 11 digits');
  if (!/^\d{2}$/.test(f.collector)) throw new RangeError(`collector is two digits: ${f.collector}`);
  const cpf = (f.cpf ?? '').padStart(12, '0');
  return `${String(f.nsr).padStart(9, '0')}7${f.markedAt}${cpf}${f.recordedAt}${f.collector}${f.online ? '0' : '1'}`;
}

/** The record sealed onto the chain: its hash covers its fields and the previous record's hash ('' for the first). */
export function sealMark(f: MarkFields, previousHash: string, sha256: Sha256Hex): Mark {
  const body = markBody(f);
  const hash = sha256(body + previousHash);
  return { ...f, hash, line: body + hash };
}

export type ParsedMark = { ok: true; mark: Mark } | { ok: false; problem: string };

/** Reads a type 7 line back (length, type, each field's form); the hash is checked by the chain, not here. */
export function parseMark(line: string): ParsedMark {
  if (line.length !== MARK_LENGTH)
    return { ok: false, problem: `a type 7 record has ${MARK_LENGTH} characters, this one ${line.length}` };
  if (line[9] !== '7') return { ok: false, problem: `record type at position 10 is "${line[9]}", not "7"` };
  const nsr = line.slice(0, 9);
  const markedAt = line.slice(10, 34);
  const cpf = line.slice(34, 46);
  const recordedAt = line.slice(46, 70);
  const collector = line.slice(70, 72);
  const online = line.slice(72, 73);
  const hash = line.slice(73);
  if (!/^\d{9}$/.test(nsr) || Number(nsr) < 1) return { ok: false, problem: `NSR "${nsr}" is not 9 digits from 1` };
  if (!DATE_TIME.test(markedAt))
    return { ok: false, problem: `mark date-time "${markedAt}" is not AAAA-MM-ddThh:mm:00ZZZZZ` };
  // We (and real files) write "0" + CPF; the Annex's rule 7 (left-aligned, space-filled) gives CPF + " ".
  const digits = /^0\d{11}$/.test(cpf) ? cpf.slice(1) : /^\d{11} $/.test(cpf) ? cpf.slice(0, 11) : null;
  if (digits === null) return { ok: false, problem: `CPF "${cpf}" is not "0" + 11 digits or 11 digits + a space` };
  if (!DATE_TIME.test(recordedAt))
    return { ok: false, problem: `recording date-time "${recordedAt}" is not AAAA-MM-ddThh:mm:00ZZZZZ` };
  if (!/^0[1-5]$/.test(collector)) return { ok: false, problem: `collector "${collector}" is not 01-05` };
  if (online !== '0' && online !== '1') return { ok: false, problem: `on-line flag "${online}" is not 0 or 1` };
  if (!/^[0-9a-fA-F]{64}$/.test(hash)) return { ok: false, problem: 'the hash is not 64 hex digits' };
  return {
    ok: true,
    mark: {
      nsr: Number(nsr),
      markedAt,
      cpf: digits === '00000000000' ? null : digits,
      recordedAt,
      collector,
      online: online === '0',
      hash,
      line,
    },
  };
}

/**
 * Whether `line`'s hash is the chain's: its fields and the previous hash as that record wrote it (hex case of the
 * result ignored: other systems write uppercase).
 */
export function markHashMatches(line: string, previousHash: string, sha256: Sha256Hex): boolean {
  return (
    sha256(line.slice(0, MARK_BODY_LENGTH) + previousHash).toLowerCase() === line.slice(MARK_BODY_LENGTH).toLowerCase()
  );
}
