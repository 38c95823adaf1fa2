/**
 * A record's `time` read in every form a service writes it (domain/time/record-time.ts), and the match
 * of a punch with the records of a `GET /times` list (sync/delivery/record-match.ts): instants to the
 * minute, in the punch's own zone, across DST in both directions, records counted for two punches
 * of one wall minute, and a list with an unreadable record that proves nothing absent.
 */
import { describe, expect, it } from 'vitest';
import { readTimes, type TimeRecordRead } from '../../src/api/time-records.js';
import { localDateTime } from '../../src/domain/time/local-time.js';
import { parseRecordTime, recordWallMinute } from '../../src/domain/time/record-time.js';
import { isRecordOf, sentMinuteOf, verdictOf, type SentMinute } from '../../src/sync/delivery/record-match.js';

const at = (iso: string): number => Date.parse(iso);

describe('parseRecordTime: the forms of `time`', () => {
  it.each<[string, ReturnType<typeof parseRecordTime>]>([
    // The spec's form, and seconds or fractions without an offset: wall time, to the minute.
    ['2026-11-28T20:27', { kind: 'wall', minute: '2026-11-28T20:27' }],
    ['2026-11-28T20:27:59', { kind: 'wall', minute: '2026-11-28T20:27' }],
    ['2026-11-28T20:27:05.123', { kind: 'wall', minute: '2026-11-28T20:27' }],
    ['2026-11-28 20:27:00', { kind: 'wall', minute: '2026-11-28T20:27' }],
    // With an offset: the instant, cut to its minute.
    ['2026-11-28T20:27:00-03:00', { kind: 'instant', at: at('2026-11-28T23:27:00Z') }],
    ['2026-11-28T20:27-03:00', { kind: 'instant', at: at('2026-11-28T23:27:00Z') }],
    ['2026-11-28T20:27:41.5-0300', { kind: 'instant', at: at('2026-11-28T23:27:00Z') }],
    ['2026-11-28T23:27:00Z', { kind: 'instant', at: at('2026-11-28T23:27:00Z') }],
    ['2026-11-28T23:27:00.000Z', { kind: 'instant', at: at('2026-11-28T23:27:00Z') }],
    ['2026-11-28T23:27:00+00:00', { kind: 'instant', at: at('2026-11-28T23:27:00Z') }],
    ['2026-11-29T04:57:00+05:30', { kind: 'instant', at: at('2026-11-28T23:27:00Z') }],
    ['2026-11-28 23:27:00+00', { kind: 'instant', at: at('2026-11-28T23:27:00Z') }],
    // HTTP dates (RFC 1123, as Eve writes dates), GMT or a numeric zone.
    ['Sat, 28 Nov 2026 23:27:00 GMT', { kind: 'instant', at: at('2026-11-28T23:27:00Z') }],
    ['Sat, 28 Nov 2026 20:27:00 -0300', { kind: 'instant', at: at('2026-11-28T23:27:00Z') }],
    ['28 Nov 2026 23:27 UTC', { kind: 'instant', at: at('2026-11-28T23:27:00Z') }],
    ['Tue, 3 Mar 2026 08:00:00 GMT', { kind: 'instant', at: at('2026-03-03T08:00:00Z') }],
  ])('%s', (text, expected) => {
    expect(parseRecordTime(text)).toEqual(expected);
  });

  it.each([
    'ontem, 25h61',
    '',
    '2026-11-28',
    '2026-11-28T24:00',
    '2026-02-30T08:00',
    '2026-11-28T20:60',
    '2026-11-28T20:27:00-25:00',
    '2026-11-28T20:27:00 -03:00',
    '28/11/2026 20:27',
    '1795904820000',
    // A weekday that is not the date's: the text is not what it seems.
    'Fri, 28 Nov 2026 23:27:00 GMT',
    'Sat, 28 Nov 2026 23:27:00 CET',
    'Sat, 28 Foo 2026 23:27:00 GMT',
  ])('not read: %j', (text) => {
    expect(parseRecordTime(text)).toBeNull();
  });
});

const rec = (time: string, id: string | null = 'r1', type: string | null = 'registro externo'): TimeRecordRead => {
  const t = parseRecordTime(time);
  if (!t) throw new Error(`unreadable in the test: ${time}`);
  return { time: t, text: time, id, type };
};
const SP: SentMinute = { minute: '2026-11-28T20:27', where: { zone: 'America/Sao_Paulo' } };

describe('isRecordOf: the punch’s wall minute in its zone', () => {
  it.each([
    '2026-11-28T20:27',
    '2026-11-28T20:27:00',
    '2026-11-28T20:27:00-03:00',
    '2026-11-28T23:27:00Z',
    '2026-11-28T23:27:59+00:00',
    'Sat, 28 Nov 2026 23:27:00 GMT',
  ])('São Paulo 20:27 is named by %s', (time) => {
    expect(isRecordOf(rec(time), SP)).toBe(true);
  });

  it.each([
    // The old rule (the first 16 characters) took these as 23:27 or 20:27 of São Paulo.
    ['2026-11-28T20:27:00Z', SP, false],
    ['2026-11-28T23:27:00Z', { minute: '2026-11-28T23:27', where: { zone: 'America/Sao_Paulo' } }, false],
    ['2026-11-28T20:27:00-04:00', SP, false],
    ['2026-11-28T20:28:00-03:00', SP, false],
    ['Sat, 28 Nov 2026 20:27:00 GMT', SP, false],
    // Another minute, or a record the API did not make.
    ['2026-11-28T20:26', SP, false],
  ] as const)('%s for %j: %s', (time, sent, expected) => {
    expect(isRecordOf(rec(time), sent)).toBe(expected);
  });

  it('only records the API made count', () => {
    expect(isRecordOf(rec('2026-11-28T23:27:00Z', 'r1', 'ajuste manual'), SP)).toBe(false);
    expect(isRecordOf(rec('2026-11-28T23:27:00Z', 'r1', null), SP)).toBe(true);
  });

  it('a fixed offset (a pruned mark) reads instants at that offset', () => {
    expect(
      isRecordOf(rec('2026-11-28T23:27:00Z'), { minute: '2026-11-28T20:27', where: { offsetMinutes: -180 } }),
    ).toBe(true);
    expect(
      isRecordOf(rec('2026-11-28T23:27:00Z'), { minute: '2026-11-28T20:27', where: { offsetMinutes: -240 } }),
    ).toBe(false);
  });

  it('a zone the runtime no longer knows: the offset the punch had at capture', () => {
    const sent = sentMinuteOf({
      local_date: '2026-11-28',
      local_time: '20:27',
      time_zone: 'Mars/Olympus_Mons',
      captured_at: at('2026-11-28T23:27:31Z'),
    });
    expect(sent).toEqual({ minute: '2026-11-28T20:27', where: { offsetMinutes: -180 } });
    expect(isRecordOf(rec('Sat, 28 Nov 2026 23:27:00 GMT'), sent)).toBe(true);
  });
});

describe('across daylight saving time (a terminal may run in any IANA zone)', () => {
  // New York, 2026-11-01: 01:59 EDT (-04:00) is followed by 01:00 EST (-05:00); 01:45 happens twice.
  const NY = 'America/New_York';
  const fallBack = { minute: '2026-11-01T01:45', where: { zone: NY } };

  it('both readings of the repeated 01:45 name it, in every form; 00:45 and 02:45 do not', () => {
    for (const time of [
      '2026-11-01T05:45:00Z',
      '2026-11-01T06:45:00Z',
      '2026-11-01T01:45:00-04:00',
      '2026-11-01T01:45:00-05:00',
      'Sun, 01 Nov 2026 06:45:00 GMT',
      '2026-11-01T01:45',
    ]) {
      expect(isRecordOf(rec(time), fallBack), time).toBe(true);
    }
    for (const time of ['2026-11-01T04:45:00Z', '2026-11-01T07:45:00Z'])
      expect(isRecordOf(rec(time), fallBack), time).toBe(false);
  });

  it('spring forward (New York 2026-03-08, 02:00 EST -> 03:00 EDT; Santiago 2026-09-06, 00:00 -> 01:00): the minutes after the gap', () => {
    expect(localDateTime(at('2026-03-08T07:30:00Z'), NY)).toEqual({ date: '2026-03-08', time: '03:30' });
    expect(isRecordOf(rec('2026-03-08T07:30:00Z'), { minute: '2026-03-08T03:30', where: { zone: NY } })).toBe(true);
    expect(isRecordOf(rec('2026-03-08T03:30:00-04:00'), { minute: '2026-03-08T03:30', where: { zone: NY } })).toBe(
      true,
    );
    expect(isRecordOf(rec('2026-03-08T06:30:00Z'), { minute: '2026-03-08T01:30', where: { zone: NY } })).toBe(true);
    expect(isRecordOf(rec('2026-03-08T07:30:00Z'), { minute: '2026-03-08T02:30', where: { zone: NY } })).toBe(false);
    const santiago = { zone: 'America/Santiago' };
    expect(recordWallMinute({ kind: 'instant', at: at('2026-09-06T04:10:00Z') }, santiago)).toBe('2026-09-06T01:10');
    expect(isRecordOf(rec('Sun, 06 Sep 2026 04:10:00 GMT'), { minute: '2026-09-06T01:10', where: santiago })).toBe(
      true,
    );
    expect(isRecordOf(rec('2026-09-06T04:10:00Z'), { minute: '2026-09-06T00:10', where: santiago })).toBe(false);
  });

  it('two punches at 01:45: the list shows the second only with a second record', () => {
    // A service that stores instants reads the two `01:45` it was sent the same way: both 05:45Z.
    const one = { times: [rec('2026-11-01T05:45:00Z', 'a')], skipped: 0 };
    const two = { times: [rec('2026-11-01T05:45:00Z', 'a'), rec('2026-11-01T05:45:00Z', 'b')], skipped: 0 };
    expect(verdictOf(one, fallBack, { count: 0, recordIds: [] })).toEqual({ kind: 'present', record: one.times[0] });
    // The first 01:45 is settled with record a: the one record the list has is its.
    expect(verdictOf(one, fallBack, { count: 1, recordIds: ['a'] })).toEqual({ kind: 'absent' });
    // Two records: the second 01:45 takes the one the first did not claim.
    expect(verdictOf(two, fallBack, { count: 1, recordIds: ['a'] })).toEqual({ kind: 'present', record: two.times[1] });
    expect(verdictOf(two, fallBack, { count: 1, recordIds: ['b'] })).toEqual({ kind: 'present', record: two.times[0] });
    expect(verdictOf(two, fallBack, { count: 2, recordIds: ['a', 'b'] })).toEqual({ kind: 'absent' });
  });
});

describe('verdictOf: what a list proves', () => {
  const readable = (...times: string[]) => ({ times: times.map((t, i) => rec(t, `r${i}`)), skipped: 0 });

  it('present, absent, and a list with an unreadable record that proves nothing absent', () => {
    expect(verdictOf(readable('2026-11-28T23:27:00Z'), SP, { count: 0, recordIds: [] })).toMatchObject({
      kind: 'present',
      record: { id: 'r0' },
    });
    expect(verdictOf(readable('2026-11-28T23:28:00Z'), SP, { count: 0, recordIds: [] })).toEqual({ kind: 'absent' });
    const garbled = readTimes({
      times: [
        { _id: 'x', type: 'registro externo', time: 'ontem, 25h61' },
        { _id: 'y', type: 'registro externo', time: '2026-11-28T23:28:00Z' },
      ],
    });
    expect(garbled.skipped).toBe(1);
    expect(verdictOf(garbled, SP, { count: 0, recordIds: [] })).toEqual({
      kind: 'unproven',
      reason: 'no record at 2026-11-28T20:27, and 1 record(s) of the list have a time that cannot be read',
    });
    // The record that is there still settles the punch.
    const found = readTimes({
      times: [
        { _id: 'x', time: 'ontem, 25h61' },
        { _id: 'y', type: 'registro externo', time: 'Sat, 28 Nov 2026 23:27:00 GMT' },
      ],
    });
    expect(verdictOf(found, SP, { count: 0, recordIds: [] })).toMatchObject({ kind: 'present', record: { id: 'y' } });
  });

  it('readTimes counts as unreadable a record without a time of a known form, not the whole list', () => {
    const r = readTimes({
      times: [
        null,
        7,
        { _id: 'a' },
        { _id: 'b', time: 1795904820000 },
        { _id: 'c', time: '2026-11-28T20:27' },
        { _id: 'd', time: 'Sat, 28 Nov 2026 23:27:00 GMT' },
      ],
    });
    expect(r.skipped).toBe(4);
    expect(r.times.map((t) => [t.id, t.time])).toEqual([
      ['c', { kind: 'wall', minute: '2026-11-28T20:27' }],
      ['d', { kind: 'instant', at: at('2026-11-28T23:27:00Z') }],
    ]);
    expect(() => readTimes({ records: [] })).toThrow(/no times list/);
  });
});
