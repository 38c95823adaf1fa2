/**
 * The evidence journal against the service (issue 15, `timeclock audit compare`): punches delivered
 * to the real mock over loopback, then changed on the service side; the comparison names what is
 * missing by NSR, lists records no mark explains without calling them wrong, asks once per
 * employee (never more than once per employee-day), leaves a mark unchecked when the service
 * does not answer, and waits while punches are due.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { auditSummaryOf } from '../../src/agent/delivery/audit-runner.js';
import { auditStateSchema, calls } from '../../src/contract.js';
import type { ServerVariants } from '../../src/mock/mock-server.js';
import { addDays } from '../../src/domain/time/local-time.js';
import { openBookkeepingConnection } from '../../src/store/database.js';
import { RetentionStore } from '../../src/store/upkeep/retention.js';
import { auditRig, daysOf, employeeDays, minuteOf, punchAndDeliver, type Punched } from '../helpers/audit-rig.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const HOUR = 3_600_000;
const other = (time: string): string => (time === '03:33' ? '03:34' : '03:33');

/** Five employees on day 1 (1010 on Manaus time, 1036 without an external id), two on day 2, one on day 3. */
async function threeDays(rig: Awaited<ReturnType<typeof auditRig>>): Promise<Punched[]> {
  const ps = await punchAndDeliver(rig, ['1001', '1002', '1003', '1010', 'M-0036']);
  rig.pass(25 * HOUR);
  ps.push(...(await punchAndDeliver(rig, ['1001', '1002'])));
  rig.pass(25 * HOUR);
  ps.push(...(await punchAndDeliver(rig, ['1001'])));
  return ps;
}

describe('the journal compared with the service', () => {
  it('names the NSR of a record deleted on the service, lists a record another terminal added, one request per employee', async () => {
    const rig = await auditRig(cleanups);
    const ps = await threeDays(rig);
    const days = daysOf(ps);
    const [first, last] = [days[0] as string, days[days.length - 1] as string];
    const ana = ps[0] as Punched;
    const joao = ps[1] as Punched;
    const maria = ps[2] as Punched;
    const rec = rig.mock.records().find((r) => r.employee_external_id === '1002' && r.time === minuteOf(joao));
    expect(rig.mock.deleteRecord(rec?._id ?? '')).toBe(true);
    // A manager's adjustment where the record was: not ours, so the mark is still missing.
    rig.mock.addRecord({ employee: '1002', time: minuteOf(joao), type: 'ajuste manual' });
    // Another terminal on the account; a manual adjustment; a record on a day 1003 has no mark.
    const elsewhere = rig.mock.addRecord({ employee: '1001', time: `${ana.localDate}T${other(ana.localTime)}` });
    rig.mock.addRecord({
      employee: '1003',
      time: `${maria.localDate}T${other(maria.localTime)}`,
      type: 'ajuste manual',
    });
    rig.mock.addRecord({ employee: '1003', time: `${addDays(maria.localDate, 1)}T12:00` });

    const before = rig.timesReads();
    const progress: number[] = [];
    const report = await rig.agent.auditCompare(
      { from: first, to: last },
      { onProgress: (p) => progress.push(p.requestsDone) },
    );
    const asked = rig.timesReads() - before;

    expect(report.marks.map((m) => m.nsr)).toEqual(ps.map((p) => p.nsr).sort((a, b) => a - b));
    expect(report.marks.filter((m) => m.status === 'missing')).toEqual([
      {
        nsr: joao.nsr,
        employee: '1002',
        minute: minuteOf(joao),
        delivered: true,
        state: 'sent',
        status: 'missing',
        note: "the service has a record of type 'ajuste manual' at that minute",
      },
    ]);
    // Each found mark names the service's record of that employee and minute.
    const records = rig.mock.records();
    for (const m of report.marks) {
      if (m.status !== 'found') continue;
      const r = records.find(
        (x) =>
          x.time === m.minute &&
          (x.employee_external_id ?? x.employee_id) === m.employee &&
          x.type === 'registro externo',
      );
      expect(m.recordId, `NSR ${m.nsr}`).toBe(r?._id);
    }
    expect(report.unexplained).toEqual([
      {
        employee: '1001',
        day: ana.localDate,
        minute: elsewhere.time,
        recordId: elsewhere._id,
        type: 'registro externo',
      },
    ]);
    expect(report.counts).toEqual({
      marks: 8,
      found: 7,
      missing: 1,
      unchecked: 0,
      unexplained: 1,
      missingDelivered: 1,
      requests: 5,
    });
    // 5 employees, 8 employee-days: one request per employee (its days fit one range).
    expect(employeeDays(ps)).toBe(8);
    expect(asked).toBe(5);
    expect(progress.at(-1)).toBe(5);

    const state = rig.agent.auditCompareState();
    // What the admin screen gets fits the contract the bridges check answers against.
    expect(auditStateSchema.parse(state)).toEqual(state);
    expect(calls.auditCompare.output.parse(auditSummaryOf(report))).toEqual(state.last);
    expect(state.running).toBeNull();
    expect(state.last).toMatchObject({
      from: first,
      to: last,
      marks: 8,
      found: 7,
      missing: 1,
      unexplained: 1,
      firstMissing: [joao.nsr],
      stopped: false,
    });
    // Kept in settings: a new agent on the same data still shows it.
    expect((await rig.reopen()).auditCompareState().last).toEqual(state.last);
  });

  it('after retention deleted the punches, finds the employee by the mark’s CPF; a CPF the roster no longer has is unchecked', async () => {
    const rig = await auditRig(cleanups);
    const ps = await punchAndDeliver(rig, ['1001', '1003']);
    rig.mock.setActive('1003', false);
    expect((await rig.agent.syncRoster()).ok).toBe(true);
    await rig.agent.stop();
    const db = openBookkeepingConnection(rig.dir);
    expect(new RetentionStore(db).pruneDelivered(rig.clock.now() + 1, 100).punches).toBe(2);
    db.close();

    const agent = await rig.reopen();
    const day = ps[0]?.localDate as string;
    const report = await agent.auditCompare({ from: day, to: day });
    expect(report.marks).toEqual([
      {
        nsr: ps[0]?.nsr,
        employee: '1001',
        minute: minuteOf(ps[0] as Punched),
        delivered: true,
        state: 'pruned',
        status: 'found',
        recordId: expect.any(String),
        type: 'registro externo',
      },
      {
        nsr: ps[1]?.nsr,
        employee: null,
        minute: minuteOf(ps[1] as Punched),
        delivered: true,
        state: 'pruned',
        status: 'unchecked',
        reason: 'no known employee: its punch was pruned and nobody in the roster has its CPF',
      },
    ]);
    expect(report.counts.requests).toBe(1);
  });

  it.each<[string, ServerVariants]>([
    ['records with seconds', { timesTimeFormat: 'seconds' }],
    ['records with seconds and an offset', { timesTimeFormat: 'offset' }],
    ['records in UTC (…Z)', { timesTimeFormat: 'utc-z' }],
    ['records in UTC (…+00:00)', { timesTimeFormat: 'utc-offset' }],
    ['records as HTTP dates (RFC 1123)', { timesTimeFormat: 'rfc1123' }],
    ['an end date the server treats as exclusive', { timesEndExclusive: true }],
  ])('%s: every mark found, nothing unexplained', async (_what, variants) => {
    const rig = await auditRig(cleanups, { variants });
    const ps = await threeDays(rig);
    const days = daysOf(ps);
    const report = await rig.agent.auditCompare({ from: days[0] as string, to: days[days.length - 1] as string });
    expect(report.counts).toEqual({
      marks: 8,
      found: 8,
      missing: 0,
      unchecked: 0,
      unexplained: 0,
      missingDelivered: 0,
      requests: 5,
    });
  });

  it('records in UTC and one no client can read: every mark found by its instant, the unreadable record counted, not listed', async () => {
    const rig = await auditRig(cleanups, { variants: { timesTimeFormat: 'utc-z', timesGarbageRecord: true } });
    const ps = await threeDays(rig);
    const days = daysOf(ps);
    const report = await rig.agent.auditCompare({ from: days[0] as string, to: days[days.length - 1] as string });
    expect(report.counts).toEqual({
      marks: 8,
      found: 8,
      missing: 0,
      unchecked: 0,
      unexplained: 0,
      missingDelivered: 0,
      requests: 5,
    });
    expect(report.skippedRecords).toBe(5);
  });

  it('records as HTTP dates after retention pruned the punches: found by the offset in the mark; a record of another terminal shown at its wall minute', async () => {
    const rig = await auditRig(cleanups, { variants: { timesTimeFormat: 'rfc1123' } });
    const ps = await punchAndDeliver(rig, ['1001', '1010']);
    const elsewhere = rig.mock.addRecord({
      employee: '1010',
      time: `${ps[1]?.localDate}T${other(ps[1]?.localTime ?? '')}`,
    });
    await rig.agent.stop();
    const db = openBookkeepingConnection(rig.dir);
    expect(new RetentionStore(db).pruneDelivered(rig.clock.now() + 1, 100).punches).toBe(2);
    db.close();
    const agent = await rig.reopen();
    const day = ps[0]?.localDate as string;
    const report = await agent.auditCompare({ from: day, to: day });
    expect(report.marks.map((m) => [m.state, m.status])).toEqual([
      ['pruned', 'found'],
      ['pruned', 'found'],
    ]);
    // 1010 is on Manaus time: the service's 'Sat, … GMT' is shown at its wall minute there.
    expect(report.unexplained).toEqual([
      {
        employee: '1010',
        day: ps[1]?.localDate,
        minute: elsewhere.time,
        recordId: elsewhere._id,
        type: 'registro externo',
      },
    ]);
  });

  it.each([404, 400] as const)(
    'a service that answers GET /times with %i: every mark unchecked with the reason, none called missing',
    async (status) => {
      const rig = await auditRig(cleanups);
      const ps = await punchAndDeliver(rig, ['1001', '1002']);
      rig.mock.setVariants({ timesAnswer: status });
      const day = ps[0]?.localDate as string;
      const report = await rig.agent.auditCompare({ from: day, to: day });
      expect(report.counts).toMatchObject({ marks: 2, found: 0, missing: 0, unchecked: 2, requests: 2 });
      for (const m of report.marks)
        expect(m.status === 'unchecked' && m.reason).toMatch(new RegExp(`^the service would not answer: ${status} `));
      expect(rig.agent.auditCompareState().last).toMatchObject({ unchecked: 2, missing: 0, firstMissing: [] });
    },
  );

  it('waits while punches are due: every punch taken before it reaches the service before its first read', async () => {
    // Room in the window and no reserve: only standing aside keeps the reads behind the punches.
    const rate = { limit: 20, windowMs: 1_000 };
    const rig = await auditRig(cleanups, { rate, settings: { rateLimit: { ...rate, punchReserve: 0 } } });
    const earlier = await punchAndDeliver(rig, ['1001', '1002', '1003']);
    const day = earlier[0]?.localDate as string;
    rig.pass(25 * HOUR);
    // Slow answers keep the uploader at its 4 requests in flight while the rest of the burst is due.
    rig.mock.setFaults({ slowResponse: 1, slowDelayMs: 300, only: { method: 'POST', pathPrefix: '/times' } });
    const before = rig.mock.requests().length;
    for (let i = 4; i <= 15; i++) await rig.punch(String(1000 + i));
    const report = await rig.agent.auditCompare({ from: day, to: day });
    const log = rig.mock.requests().slice(before);
    const posts = log.filter((q) => q.method === 'POST' && q.path.endsWith('/times'));
    const reads = log.filter((q) => q.method === 'GET' && q.path.endsWith('/times'));
    expect(posts).toHaveLength(12);
    expect(reads).toHaveLength(3);
    expect(Math.min(...reads.map((q) => q.at))).toBeGreaterThanOrEqual(Math.max(...posts.map((q) => q.at)));
    expect(report.counts).toMatchObject({ marks: 3, found: 3, requests: 3 });
    expect(log.filter((q) => q.status === 429)).toEqual([]);
  });
});
