/** The control endpoints under /__mock: no auth, not rate limited, not logged. */
import { z } from 'zod';
import { faultPlanSchema } from './faults.js';
import { errorReply, issuesOf, methodNotAllowed, readJson, type Reply } from './reply.js';
import { selfServiceControlRoute } from './self-service-control.js';
import { rateRuleSchema, TIME_RECORD_TYPES, tokensSchema, type MockState } from './state.js';
import { serverVariantsSchema } from './variants.js';

const allowFlagSchema = z.boolean().nullable();
const ALLOW_FLAG_PATH = /^\/__mock\/employees\/([^/]+)\/allow-external-api-record$/;
const RECORD_PATH = /^\/__mock\/records\/([^/]+)$/;
/** A record as if made elsewhere: `employee` is an `_id` or an external id; `time` as the API stores it. */
const otherRecordSchema = z.strictObject({
  employee: z.string().min(1),
  time: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'YYYY-MM-DDTHH:MM'),
  type: z.enum(TIME_RECORD_TYPES).default('registro externo'),
});

/** `PUT /__mock/employees/{idOrExternalId}/allow-external-api-record` with `true`, `false` or `null` (removes it). */
function allowFlag(state: MockState, method: string, rawKey: string, bodyText: string): Reply {
  if (method !== 'PUT') return methodNotAllowed('PUT');
  let key: string;
  try {
    key = decodeURIComponent(rawKey);
  } catch {
    return errorReply(404, `no employee '${rawKey}'`);
  }
  const known = state.employeesById.has(key) || state.byExternal(key) !== undefined;
  if (!known) return errorReply(404, `no employee with _id or external_id '${key}'`);
  const j = readJson(bodyText);
  if (!j.ok) return j.reply;
  const parsed = allowFlagSchema.safeParse(j.value);
  if (!parsed.success) return errorReply(422, 'invalid flag: true, false or null', issuesOf(parsed.error));
  state.setAllowExternalApiRecord(key, parsed.data ?? undefined);
  return { status: 200, body: { _status: 'OK', allow_external_api_record: parsed.data } };
}

export function controlRoute(state: MockState, method: string, path: string, bodyText: string): Reply {
  // Work leaves and hours-bank balances: self-service-control.ts.
  const selfService = selfServiceControlRoute(state, method, path, bodyText);
  if (selfService) return selfService;
  const flag = ALLOW_FLAG_PATH.exec(path);
  if (flag) return allowFlag(state, method, flag[1] as string, bodyText);
  const record = RECORD_PATH.exec(path);
  if (record) {
    // `DELETE /__mock/records/{_id}`: a record removed on the service (by a manager, another system).
    if (method !== 'DELETE') return methodNotAllowed('DELETE');
    const id = record[1] as string;
    return state.deleteRecord(id)
      ? { status: 200, body: { _status: 'OK', deleted: id } }
      : errorReply(404, `no record '${id}'`);
  }
  switch (path) {
    case '/__mock/records': {
      if (method === 'GET') return { status: 200, body: state.records };
      // `POST /__mock/records`: a record made elsewhere (another terminal or integration on the account).
      if (method !== 'POST') return methodNotAllowed('GET, POST');
      const j = readJson(bodyText);
      if (!j.ok) return j.reply;
      const parsed = otherRecordSchema.safeParse(j.value);
      if (!parsed.success)
        return errorReply(422, 'invalid record: {employee, time: YYYY-MM-DDTHH:MM, type?}', issuesOf(parsed.error));
      const known =
        state.employeesById.has(parsed.data.employee) || state.byExternal(parsed.data.employee) !== undefined;
      if (!known) return errorReply(404, `no employee with _id or external_id '${parsed.data.employee}'`);
      const rec = state.addRecord(parsed.data.employee, parsed.data.time, parsed.data.type);
      return { status: 201, body: { _status: 'OK', _id: rec._id } };
    }
    case '/__mock/requests':
      return method === 'GET' ? { status: 200, body: state.log } : methodNotAllowed('GET');
    case '/__mock/faults': {
      if (method === 'GET') return { status: 200, body: { faults: state.faults } };
      if (method !== 'PUT') return methodNotAllowed('GET, PUT');
      const j = readJson(bodyText);
      if (!j.ok) return j.reply;
      const parsed = faultPlanSchema.nullable().safeParse(j.value);
      if (!parsed.success) return errorReply(422, 'invalid fault plan', issuesOf(parsed.error));
      state.setFaults(parsed.data);
      return { status: 200, body: { _status: 'OK', faults: state.faults } };
    }
    case '/__mock/variants': {
      if (method === 'GET') return { status: 200, body: { variants: state.variants } };
      if (method !== 'PUT') return methodNotAllowed('GET, PUT');
      const j = readJson(bodyText);
      if (!j.ok) return j.reply;
      const parsed = serverVariantsSchema.nullable().safeParse(j.value);
      if (!parsed.success) return errorReply(422, 'invalid server variants', issuesOf(parsed.error));
      state.setVariants(parsed.data);
      return { status: 200, body: { _status: 'OK', variants: state.variants } };
    }
    case '/__mock/tokens': {
      // Write-only: the control endpoints are unauthenticated, so the tokens are never read back.
      if (method !== 'PUT') return methodNotAllowed('PUT');
      const j = readJson(bodyText);
      if (!j.ok) return j.reply;
      const parsed = tokensSchema.safeParse(j.value);
      if (!parsed.success)
        return errorReply(422, 'invalid token list: a non-empty array of non-empty strings', issuesOf(parsed.error));
      state.setTokens(parsed.data);
      return { status: 200, body: { _status: 'OK', tokens: parsed.data.length } };
    }
    case '/__mock/rate-limit': {
      if (method === 'GET') return { status: 200, body: state.rate.getRule() };
      if (method !== 'PUT') return methodNotAllowed('GET, PUT');
      const j = readJson(bodyText);
      if (!j.ok) return j.reply;
      const parsed = rateRuleSchema.safeParse(j.value);
      if (!parsed.success) return errorReply(422, 'invalid rate limit', issuesOf(parsed.error));
      state.rate.setRule(parsed.data);
      return { status: 200, body: { _status: 'OK', ...state.rate.getRule() } };
    }
    default:
      return errorReply(404, `no control endpoint ${path}`);
  }
}
