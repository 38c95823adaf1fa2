import { describe, expect, it } from 'vitest';
import { events, requestIdSchema, type PunchEventView } from '../../src/contract.js';
import { OwnRequests } from '../src/own-requests.js';

const ok = (requestId?: string): PunchEventView => ({
  ok: true,
  punchId: 7,
  employeeName: 'Ana',
  employeeExternalId: '1001',
  localDate: '2025-03-05',
  localTime: '12:07',
  repeat: false,
  ...(requestId === undefined ? {} : { requestId }),
});

describe('punch events vs the page’s own answers, by requestId', () => {
  it('gives each own call a fresh id the contract accepts', () => {
    const own = new OwnRequests();
    const ids = Array.from({ length: 20 }, () => own.next());
    expect(new Set(ids).size).toBe(20);
    for (const id of ids) expect(requestIdSchema.safeParse(id).success, id).toBe(true);
    // Another page (a second screen) draws its own ids: it never takes this page's for its own.
    const other = new OwnRequests();
    expect(ids.some((id) => other.isOwn(id))).toBe(false);
  });

  it('knows the echo of its own call, before or after the answer, and only that', () => {
    const own = new OwnRequests();
    const id = own.next();
    expect(own.isOwn(ok(id).requestId)).toBe(true);
    // Still its own much later (an event stream may deliver it after the call's answer), and twice.
    expect(own.isOwn(id)).toBe(true);
    // A badge-reader punch (no id) or another screen's call (an id this page never gave) is shown.
    expect(own.isOwn(ok().requestId)).toBe(false);
    expect(own.isOwn(ok('someone-else').requestId)).toBe(false);
  });

  it('remembers a bounded number of ids, the newest', () => {
    const own = new OwnRequests();
    const first = own.next();
    const rest = Array.from({ length: 64 }, () => own.next());
    expect(own.isOwn(first)).toBe(false);
    for (const id of rest) expect(own.isOwn(id)).toBe(true);
  });

  it('the punch event carries the id through the contract, and has none when no call asked', () => {
    expect(events.punch.parse(ok('abc-123'))).toEqual(ok('abc-123'));
    expect('requestId' in events.punch.parse(ok())).toBe(false);
    expect(events.punch.safeParse(ok('not an id!')).success).toBe(false);
  });
});
