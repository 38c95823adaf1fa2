import type { Dispatcher } from 'undici';
import type { ApiOutcome } from './classify.js';
import { buildDispatcher, networkFor, type ApiNetwork } from './dispatcher.js';
import { networkHint, withoutNodeCaHint } from './net-errors.js';
import { describe, requestOnce, type RequestKind } from './request-once.js';
import { scrubProxySecrets } from './proxy.js';
import { BASIC_AUTH_USER, buildPunchBody, createdSchema, type ApiDialect, type EmployeeRef } from './shapes.js';
import { readPage, readSite, type PageReading, type SiteRecord } from './roster-records.js';
import { readEmployer, type EmployerRecord } from './employer-records.js';
import { readTimes, type TimesReading } from './time-records.js';
import { readTimesheet, type TimesheetReading } from './timesheet-records.js';
import {
  hasNextPage,
  LEAVES_PAGE_SIZE,
  MAX_LEAVE_PAGES,
  readLeaveItems,
  type WorkLeavesReading,
} from './leave-records.js';

/** A roster page whose envelope could be read; its records are read one by one by the caller. */
export type EmployeePage = Extract<PageReading, { ok: true }>;

export type { ApiOutcome } from './classify.js';

/** What a request was for, as metrics count them (the kind, never who or what it carried). */
export type { RequestKind } from './request-once.js';

export type ApiClientOptions = {
  baseUrl: string;
  token: string;
  timeoutMs: number;
  dialect: ApiDialect;
  /**
   * Every answer's `Date` header, with the monotonic readings around the exchange: the terminal's
   * time is anchored on the service's (agent/time/time-source.ts), whichever call brought it.
   */
  onServerDate?: (serverDate: number, sentMono: number, receivedMono: number) => void;
  /** An answer came without a `Date` header, or with one that cannot be read (`header`: what it said, null: none). */
  onNoServerDate?: (header: string | null) => void;
  mono?: () => number;
  /**
   * Told of every request: its HTTP status, or 'error' when no answer came (with why); the agent counts them for
   * metrics.
   */
  onRequest?: (kind: RequestKind, status: number | 'error', error?: string) => void;
  /** Proxy and CA list (dispatcher.ts `networkFor`); default: the process environment's proxy variables, Node's CAs. */
  network?: ApiNetwork;
};

/**
 * The T&A API over undici. Knows paths, auth and shapes; decides nothing about retries.
 * The token is only ever placed in the Authorization header: it is not in any error text.
 */
export class ApiClient {
  private readonly dispatcher: Dispatcher;
  private auth: string;
  private readonly base: URL;
  private readonly network: ApiNetwork;

  constructor(private readonly opts: ApiClientOptions) {
    this.base = new URL(opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`);
    this.auth = basicAuth(opts.token);
    this.network = opts.network ?? networkFor(opts.baseUrl, {});
    this.dispatcher = buildDispatcher(opts.timeoutMs, this.network);
  }

  /**
   * What went wrong on the way: the error, its TLS cause or the proxy's refusal, the proxy's name (never its
   * credentials).
   */
  private failure(e: unknown): string {
    const route = this.network.route;
    const proxy = route.kind === 'proxy' ? route : null;
    return scrubProxySecrets(withoutNodeCaHint(describe(e)) + networkHint(e, proxy?.shown ?? null), proxy?.url ?? null);
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  /** A new token (the admin screen's): the next request carries it; requests already out keep theirs. */
  setToken(token: string): void {
    this.auth = basicAuth(token);
  }

  /**
   * Asks the service whether it accepts `token`, without making it this client's token: `GET
   * /sites/{siteId}` when a site is known (a 404 still means the token was accepted), else the
   * first one-employee page. An `auth` outcome means refused.
   */
  checkToken(token: string, siteId: string | null): Promise<ApiOutcome<unknown>> {
    const auth = basicAuth(token);
    if (siteId)
      return this.call(
        'token_check',
        'GET',
        `sites/${encodeURIComponent(siteId)}`,
        undefined,
        undefined,
        () => null,
        false,
        auth,
      );
    return this.call(
      'token_check',
      'GET',
      'employees',
      { max_results: '1', page: '1' },
      undefined,
      () => null,
      false,
      auth,
    );
  }

  /** A cheap read with the token in use: after a 403 on a punch, tells a refused employee from a refused token. */
  probe(): Promise<ApiOutcome<unknown>> {
    return this.call('probe', 'GET', 'employees', { max_results: '1', page: '1' }, undefined, () => null);
  }

  postTime(ref: EmployeeRef, localDate: string, localTime: string): Promise<ApiOutcome<{ remoteId: string | null }>> {
    const body = buildPunchBody(this.opts.dialect, ref, localDate, localTime);
    return this.call(
      'punch',
      'POST',
      'times',
      undefined,
      body,
      (raw) => {
        const created = createdSchema.safeParse(raw);
        // A 2xx with JSON means the server took the record; JSON of another shape does not change
        // that. A body that is not JSON at all leaves it in doubt (classify.ts).
        return { remoteId: created.success ? created.data._id : null };
      },
      true,
    );
  }

  /**
   * The employee's records of these days (whatever the server's interval semantics, the caller asks wide and matches
   * locally).
   */
  getTimes(ref: EmployeeRef, startDate: string, endDate: string): Promise<ApiOutcome<TimesReading>> {
    const q = this.opts.dialect.timesQuery;
    const query = {
      [ref.kind === 'external_id' ? 'employee_external_id' : 'employee_id']: ref.value,
      [q.startDate]: startDate,
      [q.endDate]: endDate,
    };
    return this.call('reconcile', 'GET', 'times', query, undefined, readTimes);
  }

  /** The employee's timesheet of these days (hours bank, punches per day), for their own screen. */
  getTimesheet(ref: EmployeeRef, startDate: string, endDate: string): Promise<ApiOutcome<TimesheetReading>> {
    const q = this.opts.dialect.timesheetQuery;
    const query = {
      [ref.kind === 'external_id' ? q.employeeExternalId : q.employeeId]: ref.value,
      [q.startDate]: startDate,
      [q.endDate]: endDate,
    };
    return this.call('self_service', 'GET', 'timesheets', query, undefined, readTimesheet);
  }

  /**
   * The employee's leaves that touch these days (spec: "all leaves that contain dates between"),
   * following pages up to MAX_LEAVE_PAGES. A failed page fails the whole reading (its outcome is
   * returned): a screen must not say "no leave" from half a list.
   */
  async getWorkLeaves(
    ref: EmployeeRef,
    startDate: string,
    endDate: string,
    opts: { status?: string } = {},
  ): Promise<ApiOutcome<WorkLeavesReading>> {
    const base: Record<string, string> = {
      [ref.kind === 'external_id' ? 'employee_external_id' : 'employee_id']: ref.value,
      start_date: startDate,
      end_date: endDate,
    };
    if (opts.status !== undefined) base['status'] = opts.status;
    const reading: WorkLeavesReading = { leaves: [], skipped: [], pages: 0, complete: false };
    let firstCount = 0;
    for (let page = 1; ; page++) {
      const res = await this.call(
        'self_service',
        'GET',
        'work-leaves',
        { ...base, max_results: String(LEAVES_PAGE_SIZE), page: String(page) },
        undefined,
        (raw) => {
          const r = readPage(raw);
          if (!r.ok) throw new Error(r.error);
          return r;
        },
      );
      if (res.kind !== 'ok') return res;
      readLeaveItems(res.value.items, reading);
      reading.pages = page;
      if (page === 1) firstCount = res.value.items.length;
      const more = hasNextPage(res.value.meta, page, res.value.items.length, firstCount);
      reading.complete = !more;
      if (!more || page >= MAX_LEAVE_PAGES) return { ...res, value: reading };
    }
  }

  /**
   * Active employees, a page: of `siteId` (null: all sites); with `changedSince` (ms, service time), `_updated` from
   * that minute.
   */
  getEmployeesPage(
    page: number,
    maxResults: number,
    siteId: string | null,
    changedSince?: number,
  ): Promise<ApiOutcome<EmployeePage>> {
    const query: Record<string, string> = { max_results: String(maxResults), page: String(page) };
    if (siteId) query[this.opts.dialect.siteFilterParam] = siteId;
    if (changedSince !== undefined)
      query[this.opts.dialect.updatedFilterParam] = JSON.stringify({ _updated: { $gte: minuteStamp(changedSince) } });
    return this.call('roster', 'GET', 'employees', query, undefined, (raw) => {
      const r = readPage(raw);
      if (!r.ok) throw new Error(r.error);
      return r;
    });
  }

  getSite(siteId: string): Promise<ApiOutcome<SiteRecord>> {
    return this.call('site', 'GET', `sites/${encodeURIComponent(siteId)}`, undefined, undefined, (raw) => {
      const site = readSite(raw);
      if (!site) throw new Error('the site answer is not a JSON object');
      return site;
    });
  }

  countSites(): Promise<ApiOutcome<number | null>> {
    return this.call('site', 'GET', 'sites', { max_results: '2', page: '1' }, undefined, (raw) => {
      const r = readPage(raw);
      if (!r.ok) throw new Error(r.error);
      // Without a total, a page of at most one item with room for two is the whole list.
      return r.meta.total ?? (r.items.length <= 1 ? r.items.length : null);
    });
  }

  /** An employer (payment source) by its id (api/employer-records.ts). */
  getPaymentSource(id: string): Promise<ApiOutcome<EmployerRecord>> {
    return this.call('roster', 'GET', `payment-sources/${encodeURIComponent(id)}`, undefined, undefined, (raw) => {
      const e = readEmployer(raw);
      if (!e) throw new Error('the employer answer is not a JSON object');
      return e;
    });
  }

  /** One request within one deadline (request-once.ts). */
  private call<T>(
    kind: RequestKind,
    method: 'GET' | 'POST',
    path: string,
    query: Record<string, string> | undefined,
    body: unknown,
    parse: (raw: unknown) => T,
    mayCreate = false,
    auth = this.auth,
  ): Promise<ApiOutcome<T>> {
    const url = new URL(path, this.base);
    if (query) for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return requestOnce(
      { url, method, body, auth, kind, mayCreate, shown: `${method} /${path}` },
      { ...this.opts, dispatcher: this.dispatcher, failure: (e) => this.failure(e) },
      parse,
    );
  }
}

function basicAuth(token: string): string {
  return 'Basic ' + Buffer.from(`${BASIC_AUTH_USER}:${token}`).toString('base64');
}

/** The specification's date-time shape, to the minute, in UTC: `YYYY-MM-DDTHH:MM+00:00`. */
export function minuteStamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16)}+00:00`;
}
