import { describe, expect, it } from 'vitest';
import {
  effectiveTimeZone,
  formatClock,
  formatDuration,
  formatLocalDate,
  formatLongDate,
  formatSkew,
} from '../src/format.js';

// 2025-03-05 15:07:30 UTC = 12:07:30 in São Paulo (UTC-3, no DST since 2019)
const AT = Date.UTC(2025, 2, 5, 15, 7, 30);

describe('formatting', () => {
  it('shows the clock as HH:MM in the site zone, 24 h', () => {
    expect(formatClock(AT, 'pt-BR', 'America/Sao_Paulo')).toBe('12:07:30');
    expect(formatClock(AT, 'en', 'UTC')).toBe('15:07:30');
    expect(formatClock(Date.UTC(2025, 2, 5, 3, 4, 9), 'en', 'UTC')).toBe('03:04:09');
  });

  it('shows the long date in the site zone, whose day may differ from UTC', () => {
    const lateUtc = Date.UTC(2025, 2, 6, 1, 0); // still the 5th in São Paulo
    expect(formatLongDate(lateUtc, 'pt-BR', 'America/Sao_Paulo')).toBe('quarta-feira, 5 de março de 2025');
    expect(formatLongDate(lateUtc, 'en', 'UTC')).toBe('Thursday, March 6, 2025');
  });

  it("shows a punch's local date without moving it to another day", () => {
    expect(formatLocalDate('2025-03-05', 'pt-BR')).toBe('quarta-feira, 5 de março');
    expect(formatLocalDate('2025-03-05', 'en')).toBe('Wednesday, March 5');
    expect(formatLocalDate('garbage', 'en')).toBe('garbage');
  });

  it('ignores a site zone the browser does not know', () => {
    expect(effectiveTimeZone('America/Sao_Paulo')).toBe('America/Sao_Paulo');
    expect(effectiveTimeZone('Not/AZone')).toBeUndefined();
    expect(effectiveTimeZone(null)).toBeUndefined();
  });

  it('says ages with the two largest units', () => {
    expect(formatDuration(45_000, 'en')).toBe('45 sec');
    expect(formatDuration(3 * 60_000 + 10_000, 'en')).toBe('3 min');
    expect(formatDuration(2 * 3_600_000 + 5 * 60_000, 'en')).toBe('2 hr 5 min');
    expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000 + 1, 'pt-BR')).toBe('3 dias 4 h');
    expect(formatDuration(-5, 'en')).toBe('0 sec');
  });

  it('signs the clock skew', () => {
    expect(formatSkew(-400, 'pt-BR')).toBe('−0,4 s');
    expect(formatSkew(2_500, 'en')).toBe('+2.5 s');
    expect(formatSkew(-125_000, 'en')).toBe('−2 min');
  });
});
