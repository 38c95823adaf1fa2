/** The mock's /times: a punch recorded (POST, in the dialect's body shape), an employee's records of a range (GET). */
import { z } from 'zod';
import { localDatePattern, localDateTimePattern, localTimePattern, objectIdPattern } from '../api/shapes.js';
import {
  DUPLICATE_RECORD_MESSAGE,
  errorOn2xxReply,
  GARBAGE_TIME,
  FORBIDDEN_PUNCH_MESSAGE,
  isForbiddenPunch,
  timesAnswerReply,
  timesTime,
} from './answer-variants.js';
import { errorReply, isRecord, issuesOf, type Reply } from './reply.js';
import type { MockState, StoredTimeRecord } from './state.js';
import { padText } from './variants.js';
import { postTimesBodyReply } from './wire-variants.js';

/** `localDatePattern` admits 2026-02-30; this rejects days the month does not have. */
export function isCalendarDate(date: string): boolean {
  if (!localDatePattern.test(date)) return false;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] as number;
  return d <= days;
}

/** The spec's `_created` shape: YYYY-MM-DDTHH:MM followed by an offset (always UTC here). */
export function createdStamp(ms: number): string {
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

export function postTimes(state: MockState, bodyText: string, arrival: number, token: string): Reply {
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

export function getTimes(state: MockState, params: URLSearchParams): Reply {
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
