/**
 * The API routes under /v2.1: employees, sites, timesheets, work leaves and the Eve-style paging they share; /times
 * itself in times-routes.ts.
 */
import { MAX_PAGE_SIZE, objectIdPattern, type Site } from '../api/shapes.js';
import { errorReply, isRecord, parsePositiveInt, type Reply } from './reply.js';
import { getTimesheet, selectWorkLeaves } from './self-service-routes.js';
import type { MockEmployee } from './seed.js';
import type { MockState } from './state.js';
import { createdStamp, getTimes, postTimes } from './times-routes.js';
import { applyOddRecord, oddRecordKind, padText } from './variants.js';

const DEFAULT_PAGE_SIZE = 25;

/** Read shape: everything except the mock-internal fields, rewritten by the `oddRecords` variant. */
function wireEmployee(state: MockState, e: MockEmployee): Record<string, unknown> {
  const { active: _active, site_ids: _sites, ...fields } = e;
  const long = state.variants?.longStrings;
  const rest = {
    ...fields,
    ...(long === undefined ? {} : { full_name: padText(fields.full_name, long) }),
    _updated: createdStamp(state.updatedAt(e._id)),
  };
  return state.variants?.oddRecords ? applyOddRecord(rest, oddRecordKind(state.indexOf(e._id))) : rest;
}

/** `{"_updated": {"$gte" | "$gt": "<stamp>"}}` of the `updatedFilter` variant: whom it lets through, or an error. */
function updatedFilterOf(raw: string): ((updatedMs: number) => boolean) | string {
  let q: unknown;
  try {
    q = JSON.parse(raw);
  } catch {
    return 'must be a JSON query';
  }
  const cond = isRecord(q) ? q._updated : undefined;
  if (!isRecord(cond)) return 'only {"_updated": {"$gte" | "$gt": date}} is supported';
  const [op, value] = Object.entries(cond)[0] ?? [];
  const at = typeof value === 'string' && STAMP.test(value) ? Date.parse(value) : Number.NaN;
  if ((op !== '$gte' && op !== '$gt') || Number.isNaN(at))
    return 'only {"_updated": {"$gte" | "$gt": "YYYY-MM-DDTHH:MM+hh:mm"}} is supported';
  // `_updated` is shown to the minute: compare what the client can see.
  const minute = (ms: number) => Math.floor(ms / 60_000) * 60_000;
  return op === '$gte' ? (u) => minute(u) >= at : (u) => minute(u) > at;
}
const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?([+-]\d{2}:\d{2}|Z)$/;

function wireSite(state: MockState, s: Site): Record<string, unknown> {
  if (!state.variants?.siteWithoutName) return { ...s, name: padText(s.name, state.variants?.longStrings) };
  const { name: _name, ...rest } = s;
  return rest;
}

type PageOptions<T> = {
  /** Filter params to carry into the links. */
  extra: Record<string, string>;
  toWire: (item: T) => unknown;
  /** Added to `_meta.total` on pages >= 2 (the `totalDrift` variant). */
  drift?: number;
};

/** Eve-style paginated envelope, shaped by the `pageCap`, `omitLinks` and `omitMeta` variants. */
function page<T>(state: MockState, resource: string, params: URLSearchParams, all: T[], opts: PageOptions<T>): Reply {
  const maxRaw = parsePositiveInt(params.get('max_results'));
  const pageRaw = parsePositiveInt(params.get('page'));
  const issues: Record<string, string> = {};
  if (maxRaw === 'invalid') issues.max_results = 'must be an integer >= 1';
  if (pageRaw === 'invalid') issues.page = 'must be an integer >= 1';
  if (maxRaw === 'invalid' || pageRaw === 'invalid') return errorReply(400, 'invalid query', issues);
  const v = state.variants ?? {};
  const max = Math.min(maxRaw ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, v.pageCap ?? MAX_PAGE_SIZE);
  const pageNo = pageRaw ?? 1;
  const total = all.length;
  const last = Math.max(1, Math.ceil(total / max));
  const href = (p: number): string =>
    `${resource}?${new URLSearchParams({ ...opts.extra, max_results: String(max), page: String(p) }).toString()}`;
  const links: Record<string, { title: string; href: string }> = {
    parent: { title: 'home', href: '/' },
    self: { title: resource, href: href(pageNo) },
  };
  if (pageNo < last) {
    links.next = { title: 'next page', href: href(pageNo + 1) };
    links.last = { title: 'last page', href: href(last) };
  }
  if (pageNo > 1) links.prev = { title: 'previous page', href: href(Math.min(pageNo - 1, last)) };
  const start = (pageNo - 1) * max;
  const body: Record<string, unknown> = { _items: all.slice(start, start + max).map(opts.toWire) };
  if (!v.omitLinks) body._links = links;
  // The links stay those of the real total: only the reported number drifts.
  const reported = pageNo >= 2 && opts.drift !== undefined ? Math.max(0, total + opts.drift) : total;
  if (!v.omitMeta) body._meta = { max_results: max, page: pageNo, total: reported };
  return { status: 200, body };
}

function listEmployees(state: MockState, params: URLSearchParams): Reply {
  const siteParam = state.dialect.siteFilterParam;
  // A server that does not know the parameter neither validates it nor carries it into the links.
  const site = state.variants?.ignoreSiteFilter ? null : params.get(siteParam);
  if (site !== null && !objectIdPattern.test(site))
    return errorReply(400, 'invalid query', { [siteParam]: 'must be a 24-hex id' });
  const whereParam = state.dialect.updatedFilterParam;
  const where = state.variants?.updatedFilter ? params.get(whereParam) : null;
  const changed = where === null ? null : updatedFilterOf(where);
  if (typeof changed === 'string') return errorReply(400, 'invalid query', { [whereParam]: changed });
  const selected: MockEmployee[] = [];
  // An unknown site simply selects nobody.
  for (const e of state.employeesById.values()) {
    if (
      e.active &&
      (site === null || e.site_ids.includes(site)) &&
      (changed === null || changed(state.updatedAt(e._id)))
    )
      selected.push(e);
  }
  const reply = page(state, 'employees', params, selected, {
    extra: { ...(site === null ? {} : { [siteParam]: site }), ...(where === null ? {} : { [whereParam]: where }) },
    toWire: (e) => wireEmployee(state, e),
    drift: state.variants?.totalDrift,
  });
  // page() answered 200, so the page parameter is absent or a valid number.
  if (reply.status === 200 && state.takeCut(Number(params.get('page') ?? '1'))) reply.cut = true;
  return reply;
}

export type Route = { allow: string[]; handle: (method: string) => Reply };

/** `apiPath` is relative to /v2.1 without a trailing slash; `null` when no route matches. */
export function apiRoute(
  state: MockState,
  apiPath: string,
  params: URLSearchParams,
  body: () => { text: string },
  arrival: number,
  token: string,
): Route | null {
  const segs = apiPath.split('/').slice(1);
  let id: string | undefined;
  if (segs.length === 2) {
    try {
      id = decodeURIComponent(segs[1] as string);
    } catch {
      return null;
    }
  }
  const [head] = segs;
  if (segs.length === 1 && head === 'times') {
    return {
      allow: ['GET', 'POST'],
      handle: (m) => (m === 'GET' ? getTimes(state, params) : postTimes(state, body().text, arrival, token)),
    };
  }
  if (segs.length === 1 && head === 'employees') return { allow: ['GET'], handle: () => listEmployees(state, params) };
  if (segs.length === 1 && head === 'timesheets') return { allow: ['GET'], handle: () => getTimesheet(state, params) };
  if (segs.length === 1 && head === 'work-leaves') {
    return {
      allow: ['GET'],
      handle: () => {
        const sel = selectWorkLeaves(state, params);
        return sel.ok
          ? page(state, 'work-leaves', params, sel.items, { extra: sel.extra, toWire: sel.toWire })
          : sel.reply;
      },
    };
  }
  if (segs.length === 1 && head === 'sites') {
    return {
      allow: ['GET'],
      handle: () =>
        page(state, 'sites', params, [...state.sites.values()], { extra: {}, toWire: (s) => wireSite(state, s) }),
    };
  }
  if (id !== undefined && head === 'employees') {
    return {
      allow: ['GET'],
      handle: () => {
        const e = state.employeesById.get(id);
        return e && e.active
          ? { status: 200, body: wireEmployee(state, e) }
          : errorReply(404, `no active employee with _id '${id}'`);
      },
    };
  }
  if (id !== undefined && head === 'payment-sources') {
    return {
      allow: ['GET'],
      handle: () => {
        const p = state.paymentSources.get(id);
        return p
          ? {
              status: 200,
              body: {
                ...structuredClone(p),
                _created: '2025-01-02T09:00-03:00',
                _updated: '2025-01-02T09:00-03:00',
                _etag: `etag-${id}`,
              },
            }
          : errorReply(404, `no employer with _id '${id}'`);
      },
    };
  }
  if (id !== undefined && head === 'sites') {
    return {
      allow: ['GET'],
      handle: () => {
        const s = state.sites.get(id);
        return s ? { status: 200, body: wireSite(state, s) } : errorReply(404, `no site with _id '${id}'`);
      },
    };
  }
  return null;
}
