/**
 * A punch's answer that does not fit the contract must still tell the screen what happened (issue
 * 23): a stored punch is never shown as "NOT registered". Each part of the answer is checked on its
 * own; what fits is kept, what does not is left out (or, for a required fact, set to its neutral
 * value), so the screen still gets the facts: registered, NSR, time, entry or exit when known.
 * `dropped` names what was left out (paths only, never values), for the log.
 */
import type { z } from 'zod';
import { serviceText } from '../contract/common.js';
import { adminParamsSchema } from '../contract/admin-codes.js';
import {
  punchDaySchema,
  punchNoteSchema,
  punchReceiptSchema,
  punchRefusalSchema,
  punchResultSchema,
  requestIdSchema,
  type PunchDayView,
  type PunchResultView,
} from '../contract/punch.js';

export type Salvaged = { value: PunchResultView; dropped: string[] };

type Fields = Record<string, unknown>;

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `from[key]` when it fits `schema`; else `fallback` (undefined: left out), the key noted as dropped. */
function part<T>(
  from: Fields,
  key: string,
  schema: z.ZodType<T>,
  fallback: T | undefined,
  dropped: string[],
  prefix = '',
): T | undefined {
  const v = from[key];
  if (v === undefined) return fallback;
  const p = schema.safeParse(v);
  if (p.success) return p.data;
  dropped.push(`${prefix}${key}`);
  return fallback;
}

/** The day, or as much of it as fits: entry or exit is what the screen's headline needs. */
function dayPart(raw: Fields, dropped: string[]): PunchDayView | undefined {
  const whole = part(raw, 'day', punchDaySchema, undefined, []);
  if (whole !== undefined || raw['day'] === undefined) return whole;
  const day = raw['day'];
  const direction = isObject(day) ? punchDaySchema.shape.direction.safeParse(day['direction']) : null;
  if (!isObject(day) || !direction?.success) {
    dropped.push('day');
    return undefined;
  }
  const s = punchDaySchema.shape;
  return {
    direction: direction.data,
    punches: part(day, 'punches', s.punches, [], dropped, 'day.') ?? [],
    serviceAt: part(day, 'serviceAt', s.serviceAt, null, dropped, 'day.') ?? null,
    hoursBank: part(day, 'hoursBank', s.hoursBank, null, dropped, 'day.') ?? null,
    leave: part(day, 'leave', s.leave, null, dropped, 'day.') ?? null,
  };
}

const text = serviceText.nullable();
const withoutUndefined = <T extends Fields>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function registered(raw: Fields, dropped: string[]): PunchResultView {
  const shape = punchResultSchema.options[0].shape;
  // Absent (an older agent) stays absent; one that does not fit is "not known" (null).
  const nsr = raw['nsr'] === undefined ? undefined : part(raw, 'nsr', shape.nsr, null, dropped);
  return withoutUndefined({
    ok: true as const,
    punchId: part(raw, 'punchId', shape.punchId, null, dropped) ?? null,
    nsr,
    employeeName: part(raw, 'employeeName', text, null, dropped) ?? null,
    employeeExternalId: part(raw, 'employeeExternalId', text, null, dropped) ?? null,
    localDate: part(raw, 'localDate', shape.localDate, '', dropped) ?? '',
    localTime: part(raw, 'localTime', shape.localTime, '', dropped) ?? '',
    repeat: part(raw, 'repeat', shape.repeat, false, dropped) ?? false,
    note: part(raw, 'note', punchNoteSchema, undefined, dropped),
    receipt: part(raw, 'receipt', punchReceiptSchema, undefined, dropped),
    day: dayPart(raw, dropped),
  });
}

function refused(raw: Fields, dropped: string[]): PunchResultView | null {
  const reason = punchRefusalSchema.safeParse(raw['reason']);
  if (!reason.success) return null;
  const shape = punchResultSchema.options[1].shape;
  return withoutUndefined({
    ok: false as const,
    reason: reason.data,
    params: part(raw, 'params', adminParamsSchema, undefined, dropped),
    employeeExternalId: part(raw, 'employeeExternalId', text, undefined, dropped),
    employeeName: part(raw, 'employeeName', serviceText, undefined, dropped),
    pinChallenge: part(raw, 'pinChallenge', shape.pinChallenge.unwrap(), undefined, dropped),
    enrollment: part(raw, 'enrollment', shape.enrollment.unwrap(), undefined, dropped),
  });
}

/**
 * What can be told of a punch result that failed its schema; null when not even whether it was
 * registered can be read (then the call fails as before).
 */
export function salvagePunchResult(raw: unknown): Salvaged | null {
  if (!isObject(raw)) return null;
  const dropped: string[] = [];
  const value = raw['ok'] === true ? registered(raw, dropped) : raw['ok'] === false ? refused(raw, dropped) : null;
  if (value === null) return null;
  const checked = punchResultSchema.safeParse(value);
  if (checked.success) return { value: checked.data, dropped };
  // Unreachable while every part above is checked against its own schema; the bare facts then.
  if (value.ok) {
    const bare = {
      ok: true as const,
      punchId: null,
      nsr: value.nsr ?? null,
      employeeName: null,
      employeeExternalId: null,
      localDate: value.localDate,
      localTime: value.localTime,
      repeat: value.repeat,
    };
    const b = punchResultSchema.safeParse(bare);
    if (b.success)
      return { value: b.data, dropped: [...dropped, 'employeeName', 'employeeExternalId', 'note', 'receipt', 'day'] };
  }
  return null;
}

/** The same for a `punch` event: the result salvaged, and the call's `requestId` kept when it is one. */
export function salvagePunchEvent(
  raw: unknown,
): (Salvaged & { value: PunchResultView & { requestId?: string } }) | null {
  const s = salvagePunchResult(raw);
  if (!s || !isObject(raw)) return s;
  const id = requestIdSchema.safeParse(raw['requestId']);
  return id.success ? { ...s, value: { ...s.value, requestId: id.data } } : s;
}
