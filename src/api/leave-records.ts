/**
 * Reading `GET /work-leaves` items record by record. A leave the terminal cannot place in time (no
 * readable `start_date`/`end_date`, an end before its start, a `start_time`/`end_time` that is not
 * HH:MM) is skipped with its reason; the others are kept. Every other member may be absent ("not
 * yet defined"): `type` reads as null, `approval_info.approved` as null (neither approved nor
 * refused). Unknown members are ignored.
 */
import { cutText, FIELD_TEXT_MAX } from '../domain/people/long-text.js';
import type { PageMeta } from './roster-records.js';
import { localDatePattern, localTimePattern } from './shapes.js';

export type WorkLeave = {
  id: string | null;
  employeeId: string | null;
  employeeExternalId: string | null;
  /** Reason of the leave ('ferias', 'abono', …); null when not defined. */
  type: string | null;
  startDate: string;
  endDate: string;
  /** Both set for a partial leave (spec rule 4); both null for a whole-day one. */
  startTime: string | null;
  endTime: string | null;
  /** `approval_info.approved`; null when `approval_info` or its `approved` is absent. */
  approved: boolean | null;
};

export type LeaveSkipReason = 'not_an_object' | 'bad_dates' | 'bad_times';

export type LeaveReading = { ok: true; leave: WorkLeave } | { ok: false; id: string | null; reason: LeaveSkipReason };

export type LeaveSkip = { id: string | null; reason: LeaveSkipReason };

/** All pages read, or as many as the page limit allowed (`complete: false`). */
export type WorkLeavesReading = { leaves: WorkLeave[]; skipped: LeaveSkip[]; pages: number; complete: boolean };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

/** A leave's type as people read it, any length, kept to the memory bound (issue 23); null when not defined. */
function typeOf(v: unknown): string | null {
  const s = str(v);
  return s === null ? null : cutText(s, FIELD_TEXT_MAX);
}

/** An optional HH:MM: absent (or null) is null, anything else unreadable is 'bad'. */
function timeOf(v: unknown): string | null | 'bad' {
  if (v === undefined || v === null) return null;
  return typeof v === 'string' && localTimePattern.test(v) ? v : 'bad';
}

export function readLeave(raw: unknown): LeaveReading {
  if (!isObject(raw)) return { ok: false, id: null, reason: 'not_an_object' };
  const id = str(raw['_id']);
  const start = raw['start_date'];
  const end = raw['end_date'];
  if (
    typeof start !== 'string' ||
    typeof end !== 'string' ||
    !localDatePattern.test(start) ||
    !localDatePattern.test(end) ||
    end < start
  ) {
    return { ok: false, id, reason: 'bad_dates' };
  }
  const startTime = timeOf(raw['start_time']);
  const endTime = timeOf(raw['end_time']);
  if (startTime === 'bad' || endTime === 'bad') return { ok: false, id, reason: 'bad_times' };
  const approval = isObject(raw['approval_info']) ? raw['approval_info'] : {};
  const approved = approval['approved'];
  return {
    ok: true,
    leave: {
      id,
      employeeId: str(raw['employee_id']),
      employeeExternalId: str(raw['employee_external_id']),
      type: typeOf(raw['type']),
      startDate: start,
      endDate: end,
      startTime,
      endTime,
      approved: typeof approved === 'boolean' ? approved : null,
    },
  };
}

/** Adds one page's items to `into`, record by record. */
export function readLeaveItems(items: readonly unknown[], into: Pick<WorkLeavesReading, 'leaves' | 'skipped'>): void {
  for (const item of items) {
    const r = readLeave(item);
    if (r.ok) into.leaves.push(r.leave);
    else into.skipped.push({ id: r.id, reason: r.reason });
  }
}

/** At most this many pages of leaves are asked for one screen: one employee's leaves in a few days fit in one. */
export const MAX_LEAVE_PAGES = 3;
export const LEAVES_PAGE_SIZE = 100;

/**
 * Whether a page after `page` holds more leaves. By `_meta` when the server sent it (its own
 * `max_results`, never what was asked: a server may cap pages); without it, a page as full as the
 * first one may be followed by another, an empty or shorter one ends the list.
 */
export function hasNextPage(meta: PageMeta, page: number, count: number, firstCount: number): boolean {
  if (meta.total !== null && meta.maxResults !== null) return page * meta.maxResults < meta.total && count > 0;
  return count > 0 && count >= firstCount;
}
