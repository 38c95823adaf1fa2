import { describe, expect, it } from 'vitest';
import {
  chooseTimeZone,
  isValidTimeZone,
  localDateTime,
  localMinuteMayRepeat,
} from '../../src/domain/time/local-time.js';

const at = (iso: string): number => {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) throw new Error(`bad instant ${iso}`);
  return t;
};

describe('localDateTime', () => {
  it('gives the wall time in each Brazilian zone and in UTC', () => {
    const t = at('2024-07-15T15:30:00Z');
    expect(localDateTime(t, 'America/Sao_Paulo')).toEqual({ date: '2024-07-15', time: '12:30' });
    expect(localDateTime(t, 'America/Manaus')).toEqual({ date: '2024-07-15', time: '11:30' });
    expect(localDateTime(t, 'America/Noronha')).toEqual({ date: '2024-07-15', time: '13:30' });
    expect(localDateTime(t, 'UTC')).toEqual({ date: '2024-07-15', time: '15:30' });
  });

  it('puts a late-evening punch on the local day, not the UTC day', () => {
    const t = at('2024-03-10T02:59:59.999Z');
    expect(localDateTime(t, 'America/Sao_Paulo')).toEqual({ date: '2024-03-09', time: '23:59' });
    expect(localDateTime(t, 'America/Manaus')).toEqual({ date: '2024-03-09', time: '22:59' });
    expect(localDateTime(t, 'UTC')).toEqual({ date: '2024-03-10', time: '02:59' });
    expect(localDateTime(at('2024-03-10T03:00:00Z'), 'America/Sao_Paulo')).toEqual({
      date: '2024-03-10',
      time: '00:00',
    });
  });

  it('writes midnight as 00:00, never 24:00', () => {
    expect(localDateTime(at('2024-01-01T00:00:00Z'), 'UTC')).toEqual({ date: '2024-01-01', time: '00:00' });
    expect(localDateTime(at('2023-12-31T23:59:00Z'), 'UTC')).toEqual({ date: '2023-12-31', time: '23:59' });
  });

  it('follows the 2018 spring-forward in São Paulo (00:00 became 01:00 on 2018-11-04)', () => {
    expect(localDateTime(at('2018-11-04T02:59:00Z'), 'America/Sao_Paulo')).toEqual({
      date: '2018-11-03',
      time: '23:59',
    });
    expect(localDateTime(at('2018-11-04T03:00:00Z'), 'America/Sao_Paulo')).toEqual({
      date: '2018-11-04',
      time: '01:00',
    });
    // Manaus had no daylight saving time
    expect(localDateTime(at('2018-11-04T03:00:00Z'), 'America/Manaus')).toEqual({ date: '2018-11-03', time: '23:00' });
  });

  it('follows the 2019 fall-back in São Paulo (00:00 on 2019-02-17 went back to 23:00)', () => {
    expect(localDateTime(at('2019-02-17T01:59:00Z'), 'America/Sao_Paulo')).toEqual({
      date: '2019-02-16',
      time: '23:59',
    });
    expect(localDateTime(at('2019-02-17T02:00:00Z'), 'America/Sao_Paulo')).toEqual({
      date: '2019-02-16',
      time: '23:00',
    });
    expect(localDateTime(at('2019-02-17T02:59:00Z'), 'America/Sao_Paulo')).toEqual({
      date: '2019-02-16',
      time: '23:59',
    });
    expect(localDateTime(at('2019-02-17T03:00:00Z'), 'America/Sao_Paulo')).toEqual({
      date: '2019-02-17',
      time: '00:00',
    });
  });

  it('truncates to the minute, never rounds up', () => {
    expect(localDateTime(at('2024-07-15T15:30:59.999Z'), 'America/Sao_Paulo')).toEqual({
      date: '2024-07-15',
      time: '12:30',
    });
    expect(localDateTime(at('2024-07-15T23:59:59.999Z'), 'UTC')).toEqual({ date: '2024-07-15', time: '23:59' });
    expect(localDateTime(at('2024-07-15T15:30:30.000Z'), 'America/Noronha')).toEqual({
      date: '2024-07-15',
      time: '13:30',
    });
    // local mean time of 1900 had an offset with seconds (-3:06:28): still truncated
    expect(localDateTime(at('1900-01-01T12:00:00Z'), 'America/Sao_Paulo')).toEqual({
      date: '1900-01-01',
      time: '08:53',
    });
  });
});

describe('chooseTimeZone', () => {
  it('takes the first valid zone', () => {
    expect(chooseTimeZone(['America/Manaus', 'America/Sao_Paulo'])).toBe('America/Manaus');
    expect(chooseTimeZone([null, 'America/Noronha', 'America/Manaus'])).toBe('America/Noronha');
  });

  it('falls through invalid, empty, null and undefined candidates', () => {
    expect(chooseTimeZone(['Not/AZone', '', null, undefined, 'America/Sao_Paulo'])).toBe('America/Sao_Paulo');
    expect(chooseTimeZone(['Brazil/Nowhere', 'UTC+3', 'America/Manaus'])).toBe('America/Manaus');
  });

  it('ends at UTC when nothing is usable', () => {
    expect(chooseTimeZone([])).toBe('UTC');
    expect(chooseTimeZone(['Mars/Olympus_Mons', '', null, undefined])).toBe('UTC');
  });

  it('isValidTimeZone agrees', () => {
    expect(isValidTimeZone('America/Sao_Paulo')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });
});

describe('localMinuteMayRepeat (DST fall-back)', () => {
  it('is true only for local minutes the zone lived an hour before', () => {
    const ny = 'America/New_York'; // 2026-11-01: 02:00 EDT becomes 01:00 EST at 06:00 UTC
    expect(localMinuteMayRepeat(Date.UTC(2026, 10, 1, 5, 30), ny)).toBe(false); // 01:30 EDT, the first time
    expect(localMinuteMayRepeat(Date.UTC(2026, 10, 1, 6, 30), ny)).toBe(true); // 01:30 EST, the second time
    expect(localMinuteMayRepeat(Date.UTC(2026, 10, 1, 7, 10), ny)).toBe(false); // 02:10 EST: new
    expect(localMinuteMayRepeat(Date.UTC(2026, 10, 1, 6, 30), 'America/Sao_Paulo')).toBe(false);
    expect(localMinuteMayRepeat(Date.UTC(2019, 1, 17, 2, 30), 'America/Sao_Paulo')).toBe(true); // Brazil's last fall-back, 2019
  });
});
