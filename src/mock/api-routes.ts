/** The API routes under /v2.1: times, employees, sites, timesheets, work leaves and the Eve-style paging they share. */
import { z } from 'zod';
import {
  MAX_PAGE_SIZE,
  localDatePattern,
  localDateTimePattern,
  localTimePattern,
  objectIdPattern,
  type Site,
} from '../api/shapes.js';
import {
  DUPLICATE_RECORD_MESSAGE,
  errorOn2xxReply,
  GARBAGE_TIME,
  FORBIDDEN_PUNCH_MESSAGE,
  isForbiddenPunch,
  timesAnswerReply,
  timesTime,
} from './answer-variants.js';
import { errorReply, isRecord, issuesOf, parsePositiveInt, type Reply } from './reply.js';
import { getTimesheet, selectWorkLeaves } from './self-service-routes.js';
import type { MockEmployee } from './seed.js';
import type { MockState, StoredTimeRecord } from './state.js';
import { applyOddRecord, oddRecordKind, padText } from './variants.js';
import { postTimesBodyReply } from './wire-variants.js';

const DEFAULT_PAGE_SIZE = 25;

/** `localDatePattern` admits 2026-02-30; this rejects days the month does not have. */
function isCalendarDate(date: string): boolean {
  if (!localDatePattern.test(date)) return false;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] as number;
  return d <= days;
}

/** The spec's `_created` shape: YYYY-MM-DDTHH:MM followed by an offset (always UTC here). */
function createdStamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16)}+00:00`;
}

const requiredString = z.string({ error: (iss) => (iss.input === undefined ? 'required field' : 'must be a string') });
const employeeRefFields = {
  employee_id: z.string({ error: 'must be a string' }).regex(objectIdPattern, 'must be a 24-hex id').optional(),
  employee_external_id: z.string({ error: 'must be a string' }).min(1, 'must not be empty').optional(),
};
const combinedPunchSchema = z.strictObject({
  ...employeeRefFields,
  time: requiredString.regex(localDateTimePattern, 'must be YYYY-MM-DDTHH:MM'),
});
const splitPunchSchema = z.strictObject({
  ...employeeRefFields,
  date: requiredString.regex(localDatePattern, 'must be YYYY-MM-DD'),
  time: requiredString.regex(localTimePattern, 'must be HH:MM'),
});

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

function postTimes(state: MockState, bodyText: string, arrival: number, token: string): Reply {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    return errorReply(400, 'request body must be valid JSON');
  }
  if (!isRecord(json)) return errorReply(400, 'request body must be a JSON object');
  const { dialect } = state;
  const parsed = (dialect.punchBody === 'combined' ? combinedPunchSchema : splitPunchSchema).safeParse(json);
  const issues: Record<string, string> = parsed.success ? {} : issuesOf(parsed.error);
  const hasId = json.employee_id !== undefined;
  const hasExt = json.employee_external_id !== undefined;
  if (hasId && hasExt) {
    issues.employee_id = 'mutually exclusive with employee_external_id';
    issues.employee_external_id = 'mutually exclusive with employee_id';
  } else if (!hasId && !hasExt) {
    issues.employee_id = 'exactly one of employee_id and employee_external_id is required';
  }
  if (!parsed.success || Object.keys(issues).length > 0) return errorReply(422, 'request validation failed', issues);

  const data = parsed.data;
  const time = 'date' in data ? `${data.date}T${data.time}` : data.time;
  if (!isCalendarDate(time.slice(0, 10))) {
    return errorReply(422, 'request validation failed', {
      [dialect.punchBody === 'split' ? 'date' : 'time']: 'not a calendar date',
    });
  }
  const [field, value] =
    data.employee_id !== undefined
      ? ['employee_id', data.employee_id]
      : ['employee_external_id', data.employee_external_id ?? ''];
  const emp = field === 'employee_id' ? state.employeesById.get(value) : state.byExternal(value);
  if (!emp || !emp.active) return errorReply(404, `no active employee with ${field} '${value}'`);
  // contract_data.allow_external_api_record (spec, employee): only an explicit false refuses.
  if (emp.contract_data?.allow_external_api_record === false)
    return errorReply(
      403,
      padText('external API records are not allowed for this employee', state.variants?.longStrings),
    );
  const v = state.variants ?? {};
  if (isForbiddenPunch(v.forbiddenPunches, emp))
    return errorReply(403, padText(FORBIDDEN_PUNCH_MESSAGE, v.longStrings));
  if (v.conflictOnDuplicate && state.records.some((r) => r.employee_id === emp._id && r.time === time))
    return errorReply(409, DUPLICATE_RECORD_MESSAGE);
  if (v.errorBodyOn2xx) return errorOn2xxReply();

  const rec: StoredTimeRecord = {
    _id: state.nextRecordId(),
    employee_id: emp._id,
    time,
    type: 'registro externo',
    approved: false,
    _created: createdStamp(arrival),
    receivedAt: arrival,
    token,
  };
  if (emp.external_id !== undefined) rec.employee_external_id = emp.external_id;
  state.records.push(rec);
  if (v.postTimesBody) return postTimesBodyReply(v.postTimesBody, rec);
  return { status: 201, body: { _id: rec._id, _status: 'OK', _created: rec._created } };
}

function getTimes(state: MockState, params: URLSearchParams): Reply {
  const v = state.variants ?? {};
  if (v.timesAnswer !== undefined) return timesAnswerReply(v.timesAnswer, params);
  const issues: Record<string, string> = {};
  const id = params.get('employee_id');
  const ext = params.get('employee_external_id');
  if ((id === null) === (ext === null))
    issues.employee_id = 'exactly one of employee_id and employee_external_id is required';
  const { startDate: startKey, endDate: endKey } = state.dialect.timesQuery;
  const start = params.get(startKey);
  const end = params.get(endKey);
  if (start === null || !isCalendarDate(start)) issues[startKey] = 'required, YYYY-MM-DD';
  if (end === null || !isCalendarDate(end)) issues[endKey] = 'required, YYYY-MM-DD';
  if (start !== null && end !== null && issues[startKey] === undefined && issues[endKey] === undefined && start > end) {
    issues[endKey] = `must not be before ${startKey}`;
  }
  if (Object.keys(issues).length > 0 || start === null || end === null) return errorReply(400, 'invalid query', issues);

  // Records stay readable after an employee is deactivated: rule 1 concerns employee reads.
  const emp = id !== null ? state.employeesById.get(id) : state.byExternal(ext ?? '');
  if (!emp)
    return errorReply(
      404,
      id !== null ? `no employee with employee_id '${id}'` : `no employee with employee_external_id '${ext}'`,
    );
  const times = state.records
    .filter(
      (r) =>
        r.employee_id === emp._id &&
        r.time.slice(0, 10) >= start &&
        (v.timesEndExclusive ? r.time.slice(0, 10) < end : r.time.slice(0, 10) <= end),
    )
    .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0))
    .map((r) => ({
      _id: r._id,
      approved: r.approved,
      type: r.type,
      time: timesTime(r.time, v.timesTimeFormat, emp.timezone),
    }));
  if (v.timesGarbageRecord)
    times.push({ _id: 'ffffffffffffffffffffffff', approved: false, type: 'registro externo', time: GARBAGE_TIME });
  return { status: 200, body: { employee_id: emp._id, times } };
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
