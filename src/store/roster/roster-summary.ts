/**
 * What status shows of the roster, and how it is counted: a summary made when a roster is swapped
 * in (or moved by a refresh of changes) and kept in settings, so a status read costs one row
 * whatever the size of the site. The tables themselves are roster.ts's.
 */
import { z } from 'zod';
import { recordKey } from '../settings/setting-keys.js';

type Missing = 'work_schedule' | 'employer' | 'timezone';

export type RosterHealth = {
  missingWorkSchedule: number;
  missingEmployer: number;
  badTimeZone: number;
  /** The first of them, by name. */
  employees: { id: string; externalId: string | null; name: string; missing: Missing[] }[];
};

export type NotAllowed = {
  count: number;
  employees: { id: string; externalId: string | null; name: string; heldPunches: number }[];
};

/**
 * What status shows of the roster, computed when a roster is swapped in and kept in settings: a
 * status read then costs one row, whatever the size of the site (the counts are full passes).
 */
export type RosterSummary = {
  size: number;
  health: RosterHealth;
  notAllowed: number;
  /**
   * Workers per payment source (roster-gaps.ts counts those of the sources the cache cannot name
   * from here, not by a pass over the index); absent or null: not kept (an older summary, more
   * than SOURCES_KEPT sources), counted from the table.
   */
  sources?: SourceCounts | null;
};

/** Workers per payment source id. */
export type SourceCounts = Record<string, number>;
/** More distinct payment sources than this: not kept (a site has a few employers). */
export const SOURCES_KEPT = 200;

const summarySchema: z.ZodType<RosterSummary> = z.looseObject({
  size: z.number(),
  health: z.looseObject({
    missingWorkSchedule: z.number(),
    missingEmployer: z.number(),
    badTimeZone: z.number(),
    employees: z.array(
      z.looseObject({
        id: z.string(),
        externalId: z.string().nullable(),
        name: z.string(),
        missing: z.array(z.enum(['work_schedule', 'employer', 'timezone'])),
      }),
    ),
  }),
  notAllowed: z.number(),
  sources: z.record(z.string(), z.number()).nullable().optional(),
});
/** Unreadable (or absent): computed again from the tables. */
export const SUMMARY_KEY = recordKey('roster_summary', summarySchema);
/** Unfit employees listed by name in the summary: more than any caller shows. */
const SUMMARY_LISTED = 50;

/** The full-pass counts a summary is made of (or kept page by page while staging). */
export type Counts = {
  size: number;
  schedule: number;
  employer: number;
  zone: number;
  notAllowed: number;
  sources?: SourceCounts | null;
};
export const NO_COUNTS: Counts = { size: 0, schedule: 0, employer: 0, zone: 0, notAllowed: 0, sources: {} };

/**
 * Moves `counts` (a copy is returned) by `delta` workers per source; null once more than SOURCES_KEPT sources are
 * counted, or when either is not kept.
 */
export function addSources(
  counts: SourceCounts | null | undefined,
  delta: SourceCounts | null | undefined,
): SourceCounts | null {
  if (!counts || !delta) return null;
  const out = { ...counts };
  for (const [id, d] of Object.entries(delta)) {
    const n = (out[id] ?? 0) + d;
    if (n > 0) out[id] = n;
    else delete out[id];
  }
  return Object.keys(out).length > SOURCES_KEPT ? null : out;
}

/** The columns that make an employee count as unfit or not allowed (Roster's `counts` query counts the same in SQL). */
export type Fitness = {
  work_schedule: string | null;
  payment_source: string | null;
  timezone_invalid: string | null;
  allow_api_record: number | null;
};

/** Moves the counts by one employee: `sign` 1 when it comes in, -1 when it goes. */
export function countFitness(c: Omit<Counts, 'size'>, f: Fitness, sign: 1 | -1 = 1): void {
  c.schedule += f.work_schedule === null ? sign : 0;
  c.employer += f.payment_source === null ? sign : 0;
  c.zone += f.timezone_invalid !== null ? sign : 0;
  c.notAllowed += f.allow_api_record === 0 ? sign : 0;
}

/** Counts one more worker of `source` (a staged employee); gives up (null) past SOURCES_KEPT sources. */
export function countSource(c: { sources?: SourceCounts | null }, source: string | null): void {
  if (source === null || !c.sources) return;
  const n = c.sources[source];
  if (n !== undefined) c.sources[source] = n + 1;
  else if (Object.keys(c.sources).length >= SOURCES_KEPT) c.sources = null;
  else c.sources[source] = 1;
}

/** Workers per source from rows of (id, n); null past SOURCES_KEPT. */
export function sourcesOf(rows: readonly { id: string; n: number }[]): SourceCounts | null {
  return rows.length > SOURCES_KEPT ? null : Object.fromEntries(rows.map((r) => [r.id, r.n]));
}

/** The summary of a roster with counts `c`, its first unfit employees listed by `unfit` (by name). */
export function summaryOf(c: Counts, unfit: { all(limit: number): unknown[] }): RosterSummary {
  type Row = {
    id: string;
    external_id: string | null;
    full_name: string;
    no_schedule: number;
    no_employer: number;
    bad_zone: number;
  };
  const rows = unfit.all(SUMMARY_LISTED) as Row[];
  const health: RosterHealth = {
    missingWorkSchedule: c.schedule,
    missingEmployer: c.employer,
    badTimeZone: c.zone,
    employees: rows.map((r) => ({
      id: r.id,
      externalId: r.external_id,
      name: r.full_name,
      missing: [
        ...(r.no_schedule ? (['work_schedule'] as const) : []),
        ...(r.no_employer ? (['employer'] as const) : []),
        ...(r.bad_zone ? (['timezone'] as const) : []),
      ],
    })),
  };
  return { size: c.size, health, notAllowed: c.notAllowed, sources: c.sources ?? null };
}
