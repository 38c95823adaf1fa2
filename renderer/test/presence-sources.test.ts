import { describe, expect, it } from 'vitest';
import type { PresenceBoardView } from '../../src/contract.js';
import { presenceSourceLines } from '../src/presence-sources.js';

const AT = Date.UTC(2026, 10, 29, 13, 5); // 10:05 in São Paulo
const ZONE = 'America/Sao_Paulo';

function board(sources: Partial<PresenceBoardView['sources']> = {}): PresenceBoardView {
  return {
    at: AT,
    date: '2026-11-29',
    terminal: 'tc-a',
    gate: 'A',
    onSite: [],
    forgotExit: [],
    byEmployer: [],
    byGate: [],
    counts: { onSite: 0, forgotExit: 0 },
    sources: {
      stream: { state: 'live', reason: null, since: null, readAt: AT },
      service: { at: null, people: 0 },
      unpublished: { count: 0, since: null },
      ...sources,
    },
  };
}

describe('where the presence board says its facts come from', () => {
  it('a live stream alone is one line', () => {
    expect(presenceSourceLines(board(), 'en', ZONE)).toHaveLength(1);
  });

  it('a gap in the stream is said with its time in the site zone and the people read again, in each language', () => {
    const gap = { at: Date.UTC(2026, 10, 29, 12, 58), people: 37, note: "stream gap: re-read the service's day" };
    const b = board({ stream: { state: 'live', reason: null, since: null, readAt: AT, gap } });
    expect(presenceSourceLines(b, 'pt-BR', ZONE)[1]).toBe(
      'Às 09:58 o fluxo do canteiro perdeu registros antigos: o dia de 37 pessoas está sendo relido do serviço.',
    );
    expect(presenceSourceLines(b, 'es', ZONE)[1]).toContain('A las 09:58');
    expect(presenceSourceLines(b, 'en', ZONE)[1]).toBe(
      'At 09:58 the site stream lost older entries: the day of 37 people is read again from the service.',
    );
  });

  it('cut off: since when; the service read and the unshared punches follow', () => {
    const b = board({
      stream: { state: 'cut_off', reason: 'unreachable', since: Date.UTC(2026, 10, 29, 12, 40), readAt: null },
      service: { at: Date.UTC(2026, 10, 29, 13, 0), people: 12 },
      unpublished: { count: 3, since: AT },
    });
    const lines = presenceSourceLines(b, 'en', ZONE);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('09:40');
    expect(lines[1]).toContain('10:00');
    expect(lines[2]).toBe('3 punches of this terminal not yet shared.');
  });
});
