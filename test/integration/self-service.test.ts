import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import type { PunchAnswer } from '../../src/agent/receipts/receipts.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** 10:00 in São Paulo (the test agent's zone) on 2026-11-24. */
const TEN_AM = Date.UTC(2026, 10, 24, 13, 0, 0);
const TODAY = '2026-11-24';
const HOUR = 3_600_000;
const code = (i: number) => String(100000 + i);
/**
 * The São Paulo wall time of an instant, by Intl (not the code under test). A punch's time is the
 * clock's minute when it is taken: how much injected time the roster sync and the fetches before
 * it took depends on the machine's load (time moves in steps while real I/O runs), so the
 * expected minute is read from the clock, never assumed to be 10:00 on the dot.
 */
const hhmm = (at: number) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: 'America/Sao_Paulo',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);

async function rig(
  settings: Record<string, unknown> = {},
): Promise<{ time: FakeTime; mock: MockServer; agent: Agent }> {
  const time = new FakeTime(TEN_AM);
  const mock = await startMockServer({
    seed: generatedSeed({ employees: 40, sites: 1 }),
    rateLimit: { limit: 60, windowMs: 1_000 },
    clock: time.clock,
  });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const agent = testAgent({
    dataDir: t.dir,
    mock,
    clock: time.clock,
    mono: time.mono,
    sleep: time.sleep,
    settings: { selfService: { prefetchEveryMs: 0 }, ...settings },
  });
  cleanups.push(() => agent.stop());
  const started = agent.start({ awaitRosterIfEmpty: true });
  await time.advanceUntil(() => agent.status().roster.size > 0, 'the roster synced');
  await started;
  return { time, mock, agent };
}

const asked = (mock: MockServer, path: string, employee: string) =>
  mock.requests().filter((r) => r.path.endsWith(path) && Object.values(r.query).includes(employee));

function dayOf(r: PunchAnswer) {
  if (!r.ok || !r.day) throw new Error(`no day on ${JSON.stringify(r)}`);
  return r.day;
}

describe("the employee's day on the result", () => {
  it('says entry or exit and lists the day at once; the hours bank and the punches made elsewhere once the terminal has fetched them', async () => {
    const { time, mock, agent } = await rig();
    mock.setHoursBalance(code(1), '12.50');
    // Another terminal (or the app) took this morning's entry.
    mock.addRecord({ employee: code(1), time: `${TODAY}T07:00` });

    const firstAt = time.clock.now();
    expect(firstAt - TEN_AM).toBeLessThan(HOUR); // the morning's 07:00 comes before it, the afternoon's punch after
    const first = dayOf(await agent.punch({ kind: 'badge', value: code(1) }));
    // Nothing fetched yet: this terminal's own punch only, and no request was made for the answer.
    expect(first).toEqual({
      direction: 'entry',
      punches: [{ time: hhmm(firstAt), direction: 'entry', fromService: false, isNew: true }],
      serviceAt: null,
      hoursBank: null,
      leave: null,
    });

    // After the punch is delivered, its day is fetched on what punches leave: timesheet and leaves.
    await time.advanceUntil(
      () => agent.status().queue.sent === 1 && asked(mock, '/work-leaves', code(1)).some((r) => r.status === 200),
      'the day fetched',
    );
    const fetchedAt = asked(mock, '/timesheets', code(1))[0]?.at;
    expect(fetchedAt).toBeGreaterThanOrEqual(TEN_AM);

    await time.advance(4 * HOUR, 60_000);
    const secondAt = time.clock.now();
    const second = dayOf(await agent.punch({ kind: 'badge', value: code(1) }));
    expect(
      second.punches.map((p) => `${p.time} ${p.direction}${p.fromService ? ' (service)' : ''}${p.isNew ? ' new' : ''}`),
    ).toEqual(['07:00 entry (service)', `${hhmm(firstAt)} exit`, `${hhmm(secondAt)} entry new`]);
    expect(hhmm(secondAt)).toMatch(/^1[45]:/); // four hours and what the fetch took after the first
    expect(second.direction).toBe('entry');
    // 12.50 centesimal hours = 12 h 30 min, with when it was fetched (four hours ago: shown with its age).
    expect(second.hoursBank?.minutes).toBe(750);
    expect(second.hoursBank?.at).toBeLessThan(TEN_AM + HOUR);
    expect(second.serviceAt).toBe(second.hoursBank?.at);
  });

  it('a whole-day approved vacation today is a neutral note beside a registered punch, never a refusal', async () => {
    const { time, mock, agent } = await rig();
    mock.addLeave({
      employee: code(2),
      type: 'ferias',
      start_date: '2026-11-20',
      end_date: '2026-11-30',
      approved: true,
    });
    const first = await agent.punch({ kind: 'badge', value: code(2) });
    expect(first.ok).toBe(true);
    await time.advanceUntil(
      () => asked(mock, '/work-leaves', code(2)).some((r) => r.status === 200),
      'the leaves read',
    );
    await time.advance(5 * 60_000, 60_000);
    const second = await agent.punch({ kind: 'badge', value: code(2) });
    expect(second.ok).toBe(true);
    expect(dayOf(second).leave).toEqual({ kind: 'vacation', type: 'ferias' });
    expect(dayOf(second).direction).toBe('exit');
  });

  it('never delays a result: a punch answers while the fetch of the same employee’s day still hangs', async () => {
    const { time, mock, agent } = await rig();
    // Timesheets answer only after ten minutes of real time: the fetch is still out when the next punch comes.
    mock.setFaults({ slowResponse: 1, slowDelayMs: 600_000, only: { method: 'GET', pathPrefix: '/timesheets' } });
    expect((await agent.punch({ kind: 'badge', value: code(3) })).ok).toBe(true);
    await time.advanceUntil(() => asked(mock, '/timesheets', code(3)).length === 1, 'the fetch under way');
    await time.advance(2 * 60_000, 60_000);
    const again = await agent.punch({ kind: 'badge', value: code(3) });
    expect(again.ok).toBe(true);
    expect(asked(mock, '/timesheets', code(3)).map((r) => r.status)).toEqual([null]);
    expect(dayOf(again)).toMatchObject({ direction: 'exit', hoursBank: null, serviceAt: null });
    mock.setFaults(null);
  });

  it('with selfService.enabled false nothing is asked of the service for it; entry or exit still shows', async () => {
    const { time, mock, agent } = await rig({ selfService: { enabled: false } });
    const r = await agent.punch({ kind: 'badge', value: code(4) });
    await time.advanceUntil(() => agent.status().queue.sent === 1, 'delivered');
    await time.advance(10_000, 1_000);
    expect(dayOf(r).direction).toBe('entry');
    expect(mock.requests().filter((q) => q.path.endsWith('/timesheets') || q.path.endsWith('/work-leaves'))).toEqual(
      [],
    );
  });
});
