import { describe, expect, it } from 'vitest';
import { localWhen, relativeText, spanText } from '../../src/domain/time/when-text.js';
import { closestCommand } from '../../src/cli/common/help.js';

/** 2026-11-29 19:46 in São Paulo (22:46 UTC). */
const NOW = Date.UTC(2026, 10, 29, 22, 46, 0);

describe('instants and spans for people', () => {
  it('"01:45 (em 5 h 59 min)": the wall time of the zone, a date when it is another day there', () => {
    expect(localWhen(NOW + 5 * 3_600_000 + 59 * 60_000, NOW, 'America/Sao_Paulo', 'pt-BR')).toBe(
      '2026-11-30 01:45 (em 5 h 59 min)',
    );
    expect(localWhen(NOW + 14 * 60_000, NOW, 'America/Sao_Paulo', 'en')).toBe('20:00 (in 14 min)');
    expect(localWhen(NOW - 90 * 60_000, NOW, 'America/Sao_Paulo', 'es')).toBe('18:16 (hace 1 h 30 min)');
    // The same instant in UTC is already the next day.
    expect(localWhen(NOW + 2 * 3_600_000, NOW, 'UTC', 'en')).toBe('2026-11-30 00:46 (in 2 h)');
  });

  it('spans keep their two largest units', () => {
    expect([999, 59_999, 60_000, 21_545_881, 26 * 3_600_000 + 61_000, 3 * 86_400_000].map(spanText)).toEqual([
      '0 s',
      '59 s',
      '1 min',
      '5 h 59 min',
      '1 d 2 h',
      '3 d',
    ]);
    expect(relativeText(NOW + 400, NOW, 'pt-BR')).toBe('agora');
    expect(relativeText(NOW - 180_000, NOW, 'en')).toBe('3 min ago');
  });
});

describe('a mistyped command', () => {
  const USAGE = [
    'usage:',
    '  timeclock start [--headless]   run',
    '  timeclock status [--json]      queue',
    '  timeclock receipt <NSR>        again',
    '        [--json]                 continued',
    '  timeclock screen-url           a newer command',
  ].join('\n');
  it('is matched to the nearest listed one, a transposition or a prefix counting as near', () => {
    expect(closestCommand(USAGE, 'stauts')).toBe('status');
    expect(closestCommand(USAGE, 'STATUS')).toBe('status');
    expect(closestCommand(USAGE, 'recipt')).toBe('receipt');
    expect(closestCommand(USAGE, 'screen')).toBe('screen-url');
    expect(closestCommand(USAGE, 'frobnicate')).toBeNull();
    expect(closestCommand(USAGE, 'x')).toBeNull();
  });
});
