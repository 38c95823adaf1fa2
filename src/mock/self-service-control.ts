/**
 * Control endpoints (under /__mock, like control-routes.ts: no auth, not rate limited) for what the
 * employee's screen reads: work leaves and the hours-bank balance.
 * - `GET /__mock/work-leaves`: the stored leaves; `POST` one `{employee, type, start_date, end_date,
 *   start_time?, end_time?, approved?}` (201 with its `_id`); `DELETE /__mock/work-leaves/{_id}`.
 * - `PUT /__mock/employees/{idOrExternalId}/hours-bank` with `"-3.25"` (decimal hours, two
 *   decimals) or `null` (back to "0.00").
 */
import { errorReply, issuesOf, methodNotAllowed, readJson, type Reply } from './reply.js';
import { balanceSchema, leaveInputSchema } from './self-service-state.js';
import type { MockState } from './state.js';

const LEAVE_PATH = /^\/__mock\/work-leaves\/([^/]+)$/;
const BALANCE_PATH = /^\/__mock\/employees\/([^/]+)\/hours-bank$/;

function decoded(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

function balance(state: MockState, method: string, rawKey: string, bodyText: string): Reply {
  if (method !== 'PUT') return methodNotAllowed('PUT');
  const key = decoded(rawKey);
  const known = key !== null && (state.employeesById.has(key) || state.byExternal(key) !== undefined);
  if (key === null || !known) return errorReply(404, `no employee with _id or external_id '${key ?? rawKey}'`);
  const j = readJson(bodyText);
  if (!j.ok) return j.reply;
  const parsed = balanceSchema.nullable().safeParse(j.value);
  if (!parsed.success)
    return errorReply(422, 'invalid balance: a decimal string such as "-3.25", or null', issuesOf(parsed.error));
  state.selfService.setBalance(key, parsed.data ?? undefined);
  return { status: 200, body: { _status: 'OK', final_balance: parsed.data } };
}

/** The reply of a self-service control route, or null when `path` is none of them. */
export function selfServiceControlRoute(
  state: MockState,
  method: string,
  path: string,
  bodyText: string,
): Reply | null {
  const b = BALANCE_PATH.exec(path);
  if (b) return balance(state, method, b[1] as string, bodyText);
  const one = LEAVE_PATH.exec(path);
  if (one) {
    if (method !== 'DELETE') return methodNotAllowed('DELETE');
    const id = one[1] as string;
    return state.selfService.deleteLeave(id)
      ? { status: 200, body: { _status: 'OK', deleted: id } }
      : errorReply(404, `no work leave '${id}'`);
  }
  if (path !== '/__mock/work-leaves') return null;
  if (method === 'GET') return { status: 200, body: state.selfService.leaves };
  if (method !== 'POST') return methodNotAllowed('GET, POST');
  const j = readJson(bodyText);
  if (!j.ok) return j.reply;
  const parsed = leaveInputSchema.safeParse(j.value);
  if (!parsed.success)
    return errorReply(
      422,
      'invalid leave: {employee, type, start_date, end_date, start_time?, end_time?, approved?}',
      issuesOf(parsed.error),
    );
  const leave = state.selfService.addLeave(parsed.data);
  if (!leave) return errorReply(404, `no employee with _id or external_id '${parsed.data.employee}'`);
  return { status: 201, body: { _status: 'OK', _id: leave._id } };
}
