/**
 * The comparison's rules against answers the real mock does not give on its own (sync/reads/audit-compare.ts):
 * unreadable records, two marks in one minute, 429s, a refused token, a service out of reach.
 * A real budget on a real SQLite file; the API is a stand-in that answers from a script.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { realSleep } from '../../src/agent/build-agent.js';
import type { ApiOutcome } from '../../src/api/classify.js';
import type { EmployeeRef } from '../../src/api/shapes.js';
import { readTimes, type TimeRecordRead, type TimesReading } from '../../src/api/time-records.js';
import { openDatabase, type DurableDb as Db } from '../../src/store/database.js';
import type { AuditMark } from '../../src/store/journal/audit-marks.js';
import { RateSlots } from '../../src/store/settings/rate-slots.js';
import { compareWithService, type AuditDeps } from '../../src/sync/reads/audit-compare.js';
import { RateBudget } from '../../src/sync/window/rate-budget.js';
import { tempDir } from '../helpers/temp.js';

let db: Db;
let cleanup: () => void;
beforeEach(() => {
  const t = tempDir('timeclock-audit-unit-');
  cleanup = t.cleanup;
  db = openDatabase(t.dir);
});
afterEach(() => {
  db.close();
  cleanup();
});

const clock = { now: () => Date.now() };
const mark = (nsr: number, who: string, minute: string | null, extra: Partial<AuditMark> = {}): AuditMark => ({
  nsr,
  minute,
  employee: { key: `id-${who}`, externalId: who },
  problem: null,
  delivered: true,
  state: 'sent',
  where: { zone: 'America/Sao_Paulo' },
  ...extra,
});
const ok = (times: TimeRecordRead[], skipped = 0): ApiOutcome<TimesReading> => ({
  kind: 'ok',
  status: 200,
  value: { times, skipped },
  serverDate: null,
});
const rec = (minute: string, id: string, type: string | null = 'registro externo'): TimeRecordRead => ({
  time: { kind: 'wall', minute },
  text: minute,
  id,
  type,
});

/** Answers per employee (external id) from a script, one answer per request, the last repeated. */
function rig(script: Record<string, ApiOutcome<TimesReading>[]>): {
  deps: AuditDeps;
  budget: RateBudget;
  asked: string[];
} {
  const budget = new RateBudget({
    store: new RateSlots(db),
    clock,
    sleep: realSleep,
    rule: { limit: 100, windowMs: 1_000 },
    adaptive: { adapt: false },
  });
  const asked: string[] = [];
  const api = {
    getTimes: async (ref: EmployeeRef, start: string, end: string): Promise<ApiOutcome<TimesReading>> => {
      asked.push(`${ref.value} ${start}..${end}`);
      const answers = script[ref.value] ?? [ok([])];
      return (answers.length > 1 ? answers.shift() : answers[0]) as ApiOutcome<TimesReading>;
    },
  };
  return {
    deps: { api, budget, clock, punchesDue: () => false, windowMs: () => 50, authRetryMs: 60_000 },
    budget,
    asked,
  };
}

const range = { from: '2026-03-02', to: '2026-03-03' };

describe('comparing marks with the service’s answers', () => {
  it('matches one record per mark by minute; API records left over are unexplained, other types are not', async () => {
    const { deps, asked } = rig({
      '1001': [
        ok([
          rec('2026-03-02T08:00', 'r1'),
          rec('2026-03-02T12:00', 'r2', null),
          rec('2026-03-02T13:00', 'r3', 'aparelho'),
          rec('2026-03-03T08:00', 'r4', 'ajuste manual'),
        ]),
      ],
    });
    const marks = [
      mark(1, '1001', '2026-03-02T08:00'),
      mark(2, '1001', '2026-03-02T08:00'),
      mark(3, '1001', '2026-03-03T08:00'),
      mark(4, '1001', null, { problem: 'no known employee: x', employee: null }),
    ];
    const r = await compareWithService(deps, marks, range);
    expect(asked).toEqual(['1001 2026-03-01..2026-03-04']);
    expect(
      r.marks.map((m) => [
        m.nsr,
        m.status,
        m.status === 'found' ? m.recordId : m.status === 'missing' ? m.note : m.reason,
      ]),
    ).toEqual([
      [1, 'found', 'r1'],
      [2, 'missing', null],
      [3, 'missing', "the service has a record of type 'ajuste manual' at that minute"],
      [4, 'unchecked', 'no known employee: x'],
    ]);
    expect(r.unexplained).toEqual([
      { employee: '1001', day: '2026-03-02', minute: '2026-03-02T12:00', recordId: 'r2', type: null },
    ]);
  });

  it('records with instants: read in each mark’s zone; two marks of a New York fall-back 01:45 need two records', async () => {
    const ny = { where: { zone: 'America/New_York' } } as const;
    const list = (...times: string[]) => ({
      kind: 'ok' as const,
      status: 200,
      value: readTimes({ times: times.map((time, i) => ({ _id: `r${i}`, type: 'registro externo', time })) }),
      serverDate: null,
    });
    const { deps } = rig({
      '1001': [list('2026-11-01T05:45:00Z', 'Sun, 01 Nov 2026 05:45:00 GMT', '2026-11-01T13:00:00+00:00')],
      '1002': [list('2026-11-01T06:45:00Z', '2026-11-01T12:00:00Z')],
    });
    const marks = [
      mark(1, '1001', '2026-11-01T01:45', ny),
      mark(2, '1001', '2026-11-01T01:45', ny),
      mark(3, '1001', '2026-11-01T08:00', ny),
      mark(4, '1002', '2026-11-01T01:45', ny),
      mark(5, '1002', '2026-11-01T01:45', ny),
    ];
    const r = await compareWithService(deps, marks, { from: '2026-11-01', to: '2026-11-01' });
    expect(r.marks.map((m) => [m.nsr, m.status, m.status === 'found' ? m.recordId : null])).toEqual([
      [1, 'found', 'r0'],
      [2, 'found', 'r1'],
      [3, 'found', 'r2'],
      [4, 'found', 'r0'],
      [5, 'missing', null],
    ]);
    // 12:00Z is 07:00 in New York, a minute no mark has: listed at that wall minute.
    expect(r.unexplained).toEqual([
      { employee: '1002', day: '2026-11-01', minute: '2026-11-01T07:00', recordId: 'r1', type: 'registro externo' },
    ]);
  });

  it('an answer with unreadable records proves nothing missing: what is not among the readable ones is unchecked', async () => {
    const { deps } = rig({ '1001': [ok([rec('2026-03-02T08:00', 'r1')], 2)] });
    const r = await compareWithService(
      deps,
      [mark(1, '1001', '2026-03-02T08:00'), mark(2, '1001', '2026-03-02T17:00')],
      range,
    );
    expect(r.marks.map((m) => m.status)).toEqual(['found', 'unchecked']);
    expect(r.marks[1]).toMatchObject({
      reason: 'not among the records read, but 2 record(s) of the answer could not be read',
    });
    expect(r.skippedRecords).toBe(2);
  });

  it('a 429 pauses the budget and the request is asked again; three in a row leave its marks unchecked', async () => {
    const limited: ApiOutcome<TimesReading> = { kind: 'rate_limited', retryAfterHeader: null, serverDate: null };
    const { deps, asked } = rig({ '1001': [limited, ok([rec('2026-03-02T08:00', 'r1')])], '1002': [limited] });
    const r = await compareWithService(
      deps,
      [mark(1, '1001', '2026-03-02T08:00'), mark(2, '1002', '2026-03-02T09:00')],
      range,
    );
    expect(r.marks.map((m) => m.status)).toEqual(['found', 'unchecked']);
    expect(r.marks[1]).toMatchObject({ reason: 'the service answered 429 3 times' });
    expect(asked).toHaveLength(5);
    expect(r.counts.requests).toBe(5);
  });

  it('a refused token stops the comparison: the rest is not asked, and every request waits', async () => {
    const { deps, budget, asked } = rig({
      '1001': [{ kind: 'auth', status: 401, reason: '401 please provide proper credentials', serverDate: null }],
    });
    const r = await compareWithService(
      deps,
      [mark(1, '1001', '2026-03-02T08:00'), mark(2, '1002', '2026-03-02T09:00')],
      range,
    );
    expect(asked).toHaveLength(1);
    expect(r.marks.map((m) => m.status === 'unchecked' && m.reason)).toEqual([
      'the service refused the API token: 401 please provide proper credentials',
      'the service refused the API token: 401 please provide proper credentials',
    ]);
    expect(budget.pause()?.reason).toBe('auth');
  });

  it('a service out of reach: after three failures in a row the rest is not asked', async () => {
    const down: ApiOutcome<TimesReading> = { kind: 'not_sent', error: 'connect ECONNREFUSED 127.0.0.1:9' };
    const { deps, asked } = rig({ '1001': [down], '1002': [down], '1003': [down], '1004': [down] });
    const marks = ['1001', '1002', '1003', '1004'].map((w, i) => mark(i + 1, w, '2026-03-02T08:00'));
    const r = await compareWithService(deps, marks, range);
    expect(asked).toHaveLength(3);
    expect(r.marks[3]).toMatchObject({
      status: 'unchecked',
      reason: 'not asked: 3 requests in a row failed (last: no answer to use: connect ECONNREFUSED 127.0.0.1:9)',
    });
    expect(r.counts).toMatchObject({ unchecked: 4, missing: 0, requests: 3 });
  });
});
