/**
 * A fact of the evidence journal: something that happened to a punch after its mark (AFD type 7)
 * was written, or to the journal itself. Facts form their own SHA-256 chain. Pure: the hash
 * function is passed in.
 *
 * The canonical line of a fact, what its hash covers (docs/evidence-journal.md):
 *
 *   <seq>|<nsr>|<instant>|<event>|<detail>
 *
 *   seq      decimal, 1.. without gaps
 *   nsr      decimal: the mark it concerns (for a journal event, the first NSR it names)
 *   instant  UTC, ISO 8601 with milliseconds (2026-03-02T11:05:00.000Z)
 *   event    one of FACT_EVENTS
 *   detail   free text on one line (control characters are written as spaces); may contain '|'
 *            (it is the last field)
 *
 * hash = SHA-256(UTF-8 bytes of line + previous fact's hash), lowercase hex; '' before the first.
 */

/** A stand-in for the mark helper's Sha256Hex: here over the UTF-8 bytes of the text. */
export type Sha256Text = (text: string) => string;

export const FACT_EVENTS = [
  /** Delivered to the service (detail: its `_id`), or taken as delivered by a person. */
  'delivered',
  /** The service refused it (detail: its reason). */
  'rejected',
  /** Kept and not sent (detail: why). */
  'held',
  /** Back on its way after being held or rejected (detail: why). */
  'released',
  /** A punch whose PIN was not verified, confirmed by a person. */
  'confirmed',
  /** Disputed by a person (detail: the reason): kept, never sent. */
  'disputed',
  /** An unresolved capture matched to an employee (detail: employee id, CPF, punch). */
  'resolved',
  /** Its time was recomputed on the service's clock before sending (detail: before -> after). */
  'reanchored',
  /** Journal event: the database is older than the NSR reservation (detail: the gap). */
  'restored',
  /** Journal event: punches taken before the journal existed, journalled at upgrade (detail: the range). */
  'backfilled',
  /**
   * Journal event: the terminal learnt its clock was wrong after sealing marks on it; the fact's NSR
   * is an NSR of its own, its detail the AFD type 4 record ("ajuste do relógio", 73 characters),
   * a space and the NSRs it corrects (domain/afd/clock-record.ts).
   */
  'clock_adjusted',
  /**
   * Journal event: an archive older than journal.keepYears was removed (detail: its name, NSRs and facts;
   * store/journal/journal-archive.ts).
   */
  'archive_removed',
  /** Issue 31: the punch's photo was stored (detail: `sha256 <hex> <bytes> bytes`; domain/punch/photo.ts). */
  'photo',
  /** Issue 31: the punch was taken without a photo, "sem foto" (detail: why: the camera was out). */
  'photo_missing',
  /** Issue 31: the punch's photo was removed (detail: why, e.g. kept its photo.keepDays). */
  'photo_removed',
] as const;
export type FactEvent = (typeof FACT_EVENTS)[number];

/** Events about the journal rather than one punch: their NSR need not have a mark. */
export const JOURNAL_EVENTS: readonly FactEvent[] = ['restored', 'backfilled', 'clock_adjusted', 'archive_removed'];

/** The type 4 line a 'clock_adjusted' fact carries, or null when its detail does not start with one. */
export function clockAdjustedLine(detail: string): string | null {
  const line = detail.slice(0, 73);
  return /^\d{9}4\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00[+-]\d{4}\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00[+-]\d{4}\d{11}[0-9A-F]{4}$/.test(
    line,
  )
    ? line
    : null;
}

export type FactFields = { seq: number; nsr: number; at: number; event: FactEvent; detail: string };

export function isFactEvent(s: string): s is FactEvent {
  return (FACT_EVENTS as readonly string[]).includes(s);
}

/** Detail as stored: one line (control characters become spaces), at most 1,000 characters. */
export function factDetail(text: string | null | undefined): string {
  return (text ?? '').replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, 1_000);
}

export function factLine(f: FactFields): string {
  if (!Number.isInteger(f.seq) || f.seq < 1) throw new RangeError(`fact seq out of range: ${f.seq}`);
  if (!Number.isInteger(f.nsr) || f.nsr < 1) throw new RangeError(`fact NSR out of range: ${f.nsr}`);
  return `${f.seq}|${f.nsr}|${new Date(f.at).toISOString()}|${f.event}|${f.detail}`;
}

export function factHash(f: FactFields, previousHash: string, sha256: Sha256Text): string {
  return sha256(factLine(f) + previousHash);
}

/** The NSRs a 'restored' fact says are not in the database: `gap <from>-<to>: …`. */
export function restoredGap(detail: string): { from: number; to: number } | null {
  const m = /^gap (\d+)-(\d+)\b/.exec(detail);
  if (!m) return null;
  const from = Number(m[1]);
  const to = Number(m[2]);
  return from >= 1 && to >= from ? { from, to } : null;
}

export function restoredDetail(from: number, to: number, why: string): string {
  return factDetail(`gap ${from}-${to}: ${why}`);
}
