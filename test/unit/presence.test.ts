/**
 * The presence rules (domain/punch/presence.ts): the latest punch wins, entries of an earlier day
 * apart, the service's day relabels.
 */
import { describe, expect, it } from 'vitest';
import {
  applyEvent,
  buildBoard,
  dayBefore,
  fromServiceDay,
  nextDirection,
  type PersonPresence,
  type PresenceEvent,
} from '../../src/domain/punch/presence.js';

const T0 = Date.UTC(2026, 10, 27, 11, 0); // 08:00 in São Paulo
const ev = (o: Partial<PresenceEvent> & { id: string; at: number }): PresenceEvent => ({
  employeeKey: 'e1',
  employeeExternalId: '1001',
  localDate: '2026-11-27',
  localTime: '08:00',
  direction: 'entry',
  terminal: 'A',
  gate: 'A',
  ...o,
});
const fold = (events: PresenceEvent[]): PersonPresence | undefined =>
  events.reduce<PersonPresence | undefined>((p, e) => applyEvent(p, e, 'stream') ?? p, undefined);

describe('presence', () => {
  it('an exit at another gate after an entry: out; the same exit delivered late or twice changes nothing', () => {
    const entry = ev({ id: 'A:1', at: T0 });
    const exit = ev({ id: 'B:7', at: T0 + 3_600_000, localTime: '09:00', direction: 'exit', terminal: 'B', gate: 'B' });
    expect(fold([entry, exit])?.direction).toBe('exit');
    expect(fold([exit, entry])?.direction).toBe('exit');
    expect(applyEvent(fold([entry, exit]), exit, 'stream')).toBeNull();
  });

  it('labels a punch exit within a shift of an entry, entry after a forgotten exit', () => {
    const inside = { direction: 'entry' as const, at: T0 };
    expect(nextDirection(inside, T0 + 8 * 3_600_000, 16 * 3_600_000)).toBe('exit');
    expect(nextDirection(inside, T0 + 17 * 3_600_000, 16 * 3_600_000)).toBe('entry');
    expect(nextDirection(null, T0, 16 * 3_600_000)).toBe('entry');
  });

  it("the board counts today's entries; yesterday's entry without exit is apart; groups by employer and gate", () => {
    const people: PersonPresence[] = [
      { ...ev({ id: 'A:1', at: T0, employeeKey: 'e1' }), source: 'own', entryAt: T0, entryGate: 'A' },
      {
        ...ev({ id: 'B:1', at: T0 + 60_000, employeeKey: 'e2', gate: 'B' }),
        source: 'stream',
        entryAt: T0 + 60_000,
        entryGate: 'B',
      },
      {
        ...ev({ id: 'A:0', at: T0 - 86_400_000, employeeKey: 'e3', localDate: '2026-11-26' }),
        source: 'own',
        entryAt: T0 - 86_400_000,
        entryGate: 'A',
      },
      {
        ...ev({ id: 'A:2', at: T0, employeeKey: 'e4', direction: 'exit' }),
        source: 'own',
        entryAt: null,
        entryGate: null,
      },
    ];
    const names: Record<string, { name: string; employer: string }> = {
      e1: { name: 'Ana', employer: 'X' },
      e2: { name: 'Bia', employer: 'Y' },
    };
    const b = buildBoard(people, '2026-11-27', T0 + 90 * 60_000, (k) => names[k] ?? null, dayBefore('2026-11-27'));
    expect(b.onSite.map((p) => [p.employee_external_id, p.name, p.minutesInside])).toEqual([
      ['1001', 'Ana', 90],
      ['1001', 'Bia', 89],
    ]);
    expect(b.forgotExit.map((p) => p.employeeKey)).toEqual(['e3']);
    expect(b.counts).toEqual({ onSite: 2, forgotExit: 1 });
    expect(b.byGate).toEqual([
      { name: 'A', count: 1 },
      { name: 'B', count: 1 },
    ]);
    expect(b.byEmployer.map((g) => g.name)).toEqual(['X', 'Y']);
    expect(dayBefore('2026-03-01')).toBe('2026-02-28');
  });

  it("the service's day: a later record relabels by alternation; a known punch of the same minute is relabelled only if wrong", () => {
    const known: PersonPresence = {
      ...ev({ id: 'A:1', at: T0, localTime: '09:00' }),
      source: 'own',
      entryAt: T0,
      entryGate: 'A',
    };
    expect(fromServiceDay(known, '2026-11-27', ['08:00', '09:00'])).toEqual({ time: '09:00', direction: 'exit' });
    expect(fromServiceDay(known, '2026-11-27', ['09:00'])).toBeNull();
    expect(fromServiceDay(known, '2026-11-27', ['08:00'])).toBeNull();
    expect(fromServiceDay(undefined, '2026-11-27', ['12:00', '07:00', '11:00'])).toEqual({
      time: '12:00',
      direction: 'entry',
    });
    expect(fromServiceDay(undefined, '2026-11-27', [])).toBeNull();
  });
});
