/**
 * Reading the roster's answers record by record. The specification does not show the fields of an
 * employee or site read, says an absent field is "not yet defined", and shows no maximum page
 * size: so nothing here fails a page for one record, and every optional field may be absent, null
 * or of an unexpected type (all three read as "not defined"). Unknown members are ignored. Names
 * are any length (issue 23): kept whole up to the memory bound, cut beyond it.
 */
import { cutText, FIELD_TEXT_MAX } from '../domain/people/long-text.js';

/** One employee as the terminal keeps it; null is "not defined by the service". */
export type EmployeeRecord = {
  /** The service's `_id`, or null when it sent none (then `externalId` identifies the employee). */
  id: string | null;
  externalId: string | null;
  fullName: string | null;
  cpf: string | null;
  registrationNumber: string | null;
  timezone: string | null;
  workSchedule: string | null;
  paymentSource: string | null;
  /** `contract_data.allow_external_api_record`: true, false, or null (not defined). */
  allowApiRecord: boolean | null;
};

/** Why a record cannot be used (src/contract.ts `skipReasonSchema`; people read it worded). */
export type SkipReason = 'no_ids' | 'not_an_object';

export type RecordReading =
  { ok: true; employee: EmployeeRecord } | { ok: false; id: string | null; reason: SkipReason };

/** The paging facts of an answer, each null when the server did not say (or said nonsense). */
export type PageMeta = { maxResults: number | null; page: number | null; total: number | null };

export type PageReading = { ok: true; items: unknown[]; meta: PageMeta } | { ok: false; error: string };

/** The site as the terminal keeps it. */
export type SiteRecord = { id: string | null; name: string | null; timezone: string | null };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A non-empty string, else "not defined". */
function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

/** Text people read (a name), any length the service sends, kept to the memory bound; ids are never cut. */
function shownText(v: unknown): string | null {
  const s = str(v);
  return s === null ? null : cutText(s, FIELD_TEXT_MAX);
}

function bool(v: unknown): boolean | null {
  return typeof v === 'boolean' ? v : null;
}

function nonNegativeInt(v: unknown, min = 0): number | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= min ? v : null;
}

/**
 * A page envelope: `_items` must be an array (without it there is nothing to read, and an answer
 * that is not a page at all must not pass for an empty roster); `_meta` and `_links` may be absent.
 */
export function readPage(raw: unknown): PageReading {
  if (!isObject(raw)) return { ok: false, error: 'the answer is not a JSON object' };
  const items = raw['_items'];
  if (!Array.isArray(items)) return { ok: false, error: 'the answer has no _items array' };
  const m = isObject(raw['_meta']) ? raw['_meta'] : {};
  return {
    ok: true,
    items,
    meta: {
      maxResults: nonNegativeInt(m['max_results'], 1),
      page: nonNegativeInt(m['page'], 1),
      total: nonNegativeInt(m['total']),
    },
  };
}

/** One employee record; unusable only when nothing identifies it (neither `_id` nor `external_id`). */
export function readEmployee(raw: unknown): RecordReading {
  if (!isObject(raw)) return { ok: false, id: null, reason: 'not_an_object' };
  const id = str(raw['_id']);
  const externalId = str(raw['external_id']);
  if (id === null && externalId === null) return { ok: false, id: null, reason: 'no_ids' };
  const contract = isObject(raw['contract_data']) ? raw['contract_data'] : {};
  return {
    ok: true,
    employee: {
      id,
      externalId,
      fullName: shownText(raw['full_name']),
      cpf: str(raw['cpf']),
      registrationNumber: str(contract['registration_number']),
      timezone: str(raw['timezone']),
      workSchedule: str(raw['work_schedule']),
      paymentSource: str(contract['payment_source']),
      allowApiRecord: bool(contract['allow_external_api_record']),
    },
  };
}

/** The site record: every field optional. */
export function readSite(raw: unknown): SiteRecord | null {
  if (!isObject(raw)) return null;
  return { id: str(raw['_id']), name: shownText(raw['name']), timezone: str(raw['timezone']) };
}
