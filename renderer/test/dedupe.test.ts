import { describe, expect, it } from 'vitest';
import type { PunchResultView } from '../../src/contract.js';
import { PunchDedupe } from '../src/dedupe.js';

const ok = (punchId: number | null, name = 'Ana'): PunchResultView => ({
  ok: true,
  punchId,
  employeeName: name,
  employeeExternalId: '1001',
  localDate: '2025-03-05',
  localTime: '12:07',
  repeat: false,
  message: 'Registered',
});
const refused: PunchResultView = { ok: false, reason: 'unknown_credential', message: 'Badge not recognised.' };

describe('punch events vs the page’s own answers', () => {
  it('drops every event while an own call is in flight (the event of that very punch comes first)', () => {
    const d = new PunchDedupe();
    d.begin();
    expect(d.acceptEvent(ok(7), 0)).toBe(false);
    expect(d.acceptEvent(ok(8, 'Bia'), 10)).toBe(false);
  });

  it('drops the event of the punch just answered, by punchId, even late', () => {
    const d = new PunchDedupe();
    d.begin();
    d.end(ok(7), 0);
    expect(d.acceptEvent(ok(7), 10_000)).toBe(false);
    expect(d.acceptEvent(ok(8, 'Bia'), 10_001)).toBe(true);
  });

  it('drops an identical refusal within 2 s, shows it again after', () => {
    const d = new PunchDedupe();
    d.begin();
    d.end(refused, 1_000);
    expect(d.acceptEvent({ message: 'Badge not recognised.', reason: 'unknown_credential', ok: false }, 2_900)).toBe(false);
    const later = new PunchDedupe();
    later.begin();
    later.end(refused, 1_000);
    expect(later.acceptEvent(refused, 3_100)).toBe(true);
  });

  it('shows a badge-reader punch when the page has no call of its own', () => {
    const d = new PunchDedupe();
    expect(d.acceptEvent(ok(3), 0)).toBe(true);
    // and the same event delivered twice is shown once
    expect(d.acceptEvent(ok(3), 5)).toBe(false);
  });

  it('treats unresolved punches (no punchId) by content', () => {
    const d = new PunchDedupe();
    d.begin();
    d.end(ok(null, 'x'), 0);
    expect(d.acceptEvent(ok(null, 'x'), 500)).toBe(false);
    expect(d.acceptEvent(ok(null, 'y'), 600)).toBe(true);
  });

  it('a failed own call (null) ends the in-flight state without hiding the next event', () => {
    const d = new PunchDedupe();
    d.begin();
    d.end(null, 0);
    expect(d.acceptEvent(refused, 1)).toBe(true);
  });
});
