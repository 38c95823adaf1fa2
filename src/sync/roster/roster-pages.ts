import type { ApiOutcome, EmployeePage } from '../../api/client.js';
import type { RosterEmployee } from '../../store/roster/roster.js';
import { usableRows, type Skipped } from './roster-rows.js';

/** No site has this many pages: a server that never says it is done is stopped here. */
const MAX_PAGES = 100_000;

export type PagesDeps = {
  /** Page `page` of the listing on a roster slot (null: cancelled). */
  fetch: (page: number) => Promise<ApiOutcome<EmployeePage> | null>;
  /** Stages a page's usable rows; returns how many were new to the staged roster. */
  stage: (rows: readonly RosterEmployee[]) => number;
  progress: (p: { pagesDone: number; pagesTotal: number | null }) => void;
};

export type PagesRead =
  | {
      ok: true;
      requests: number;
      pages: number;
      listed: number;
      firstTotal: number | null;
      lastTotal: number | null;
      /** The service's time (Date header) of the first page. */
      startedAt: number | null;
      skipped: Skipped;
      /** Why the pages do not make a whole roster; null when they seem to. */
      problem: string | null;
    }
  | { ok: false; requests: number; res: ApiOutcome<unknown> | null };

/**
 * Every page of the listing into the staging table, one page in memory at a time. Paging follows
 * what the server answered, never what was asked; each record is read on its own.
 */
export async function stageAllPages(d: PagesDeps): Promise<PagesRead> {
  const skipped: Skipped = { count: 0, examples: [] };
  let requests = 0;
  let listed = 0;
  let firstTotal: number | null = null;
  let lastTotal: number | null = null;
  let largest = 0;
  let pages = 0;
  let startedAt: number | null = null;
  let problem: string | null = null;
  for (let page = 1; ; page++) {
    if (page > MAX_PAGES) {
      problem = `the service did not stop after ${MAX_PAGES} pages`;
      break;
    }
    const perPage = largest || null;
    d.progress({
      pagesDone: page - 1,
      pagesTotal: lastTotal !== null && perPage ? Math.ceil(lastTotal / perPage) : null,
    });
    requests++;
    const res = await d.fetch(page);
    if (!res || res.kind !== 'ok') return { ok: false, requests, res };
    if (page === 1) startedAt = res.serverDate;
    pages = page;
    const { items, meta } = res.value;
    if (meta.page !== null && meta.page !== page) {
      problem = `the service answered page ${meta.page} when asked for page ${page}`;
      break;
    }
    if (meta.total !== null) {
      firstTotal ??= meta.total;
      lastTotal = meta.total;
    }
    const usable = usableRows(items, listed, skipped);
    const added = d.stage(usable);
    listed += items.length;
    if (usable.length > 0 && added === 0) {
      problem = `the service sent page ${page} again (it may ignore the page parameter)`;
      break;
    }
    // The last page: an empty one, one the server's own numbers say ends it, or (without them)
    // one shorter than the pages before it.
    if (items.length === 0) break;
    if (lastTotal !== null && listed >= lastTotal) break;
    if (meta.maxResults !== null && items.length < meta.maxResults) break;
    if (lastTotal === null && meta.maxResults === null && items.length < largest) break;
    largest = Math.max(largest, items.length);
  }
  if (!problem && firstTotal !== null && lastTotal !== firstTotal)
    problem = `the total moved from ${firstTotal} to ${lastTotal} during the sync`;
  if (!problem && lastTotal !== null && listed !== lastTotal)
    problem = `${listed} employees arrived of the ${lastTotal} the service counts`;
  return { ok: true, requests, pages, listed, firstTotal, lastTotal, startedAt, skipped, problem };
}
