/**
 * Issue 23 item 8: no string from the service can break an answer. The real pipeline (mock API with
 * the `longStrings` variant -> roster sync -> capture in SQLite -> the web bridge over loopback HTTP
 * -> delivery) with 10,000-character employee names, site name and leave types: every punch answers
 * registered with its NSR and time, and is delivered once. (Before: a leave type over 60 characters
 * answered every punch of that employee as "not registered"; a name over ~1,740 characters did it
 * through the receipt's QR text.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { CONSOLE_NAME_MAX } from '../../src/cli/status/format.js';
import { RECEIPT_QR_MAX_BYTES, type PunchResultView, type StatusView } from '../../src/contract.js';
import { SERVICE_TEXT_MAX } from '../../src/contract/common.js';
import { cutText } from '../../src/domain/people/long-text.js';
import { normalizeCnpj } from '../../src/domain/people/cnpj.js';
import { createLogger } from '../../src/log.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { DEMO_SITE_ID, demoSeed } from '../../src/mock/seed.js';
import { padText, type ServerVariants } from '../../src/mock/variants.js';
import { startWebBridge, type WebBridge } from '../../src/web/web-bridge.js';
import { recordCounts, testAgent } from '../helpers/agent.js';
import { runCli } from '../helpers/cli.js';
import { FakeTime } from '../helpers/fake-time.js';
import { tempDir } from '../helpers/temp.js';
import { json, webBridgeRig } from '../helpers/web-bridge-rig.js';

const rig = webBridgeRig();

/** 10:00 in São Paulo on 2026-11-24. */
const TEN_AM = Date.UTC(2026, 10, 24, 13, 0, 0);
const TODAY = '2026-11-24';
const LONG = 10_000;
const ADMIN_PIN = '582913';
/** The longest employer name the configuration takes: the AFD header's field (150). */
const EMPLOYER = padText('Construtora Exemplo Ação Ltda', 150);
const ANA = padText('Ana Paula Ferreira da Silva', LONG);

type Registered = Extract<PunchResultView, { ok: true }>;

/**
 * `got` is exactly `want`: compared whole, reported by length and start (a failure must not print 10,000 characters).
 */
function expectText(got: string | null | undefined, want: string): void {
  const shape = (s: string | null | undefined) => ({ length: s?.length, start: s?.slice(0, 40), end: s?.slice(-20) });
  expect({ ...shape(got), same: got === want }).toEqual({ ...shape(want), same: true });
}

async function setup(
  variants: ServerVariants,
): Promise<{ time: FakeTime; mock: MockServer; agent: Agent; bridge: WebBridge; logs: string[] }> {
  const time = new FakeTime(TEN_AM);
  const mock = await startMockServer({
    seed: demoSeed(),
    rateLimit: { limit: 60, windowMs: 1_000 },
    clock: time.clock,
    variants,
  });
  rig.cleanups.push(() => mock.close());
  const t = tempDir();
  rig.cleanups.push(t.cleanup);
  const agent = testAgent({
    dataDir: path.join(t.dir, 'data'),
    mock,
    clock: time.clock,
    mono: time.mono,
    sleep: time.sleep,
    siteId: DEMO_SITE_ID,
    settings: {
      selfService: { prefetchEveryMs: 0 },
      employer: { name: EMPLOYER, cnpj: normalizeCnpj('11.222.333/0001-81') },
    },
  });
  rig.cleanups.push(() => agent.stop());
  const started = agent.start({ awaitRosterIfEmpty: true });
  await time.advanceUntil(() => agent.status().roster.size > 0, 'the roster synced');
  await started;
  const root = path.join(t.dir, 'renderer');
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>kiosk</title>');
  const logs: string[] = [];
  const bridge = await startWebBridge({
    agent,
    host: '127.0.0.1',
    port: 0,
    rendererDir: root,
    adminPin: { verify: async (pin) => pin === ADMIN_PIN },
    clock: time.clock,
    log: createLogger({ level: 'debug', write: (l) => logs.push(l) }),
  });
  rig.cleanups.push(() => bridge.close());
  return { time, mock, agent, bridge, logs };
}

/** A punch through the web bridge, as the screen makes it: the answer must be a registered punch. */
async function punch(bridge: WebBridge, code: string): Promise<Registered> {
  const reply = await rig.api(bridge, 'punch', { credential: { kind: 'badge', value: code }, requestId: `r-${code}` });
  expect(reply.status).toBe(200);
  const answer = json(reply) as { ok: boolean; value?: PunchResultView; error?: unknown };
  if (!answer.ok || !answer.value?.ok) throw new Error(`punch ${code} not registered: ${reply.text.slice(0, 300)}`);
  return answer.value;
}

const askedFor = (mock: MockServer, route: string, employee: string) =>
  mock
    .requests()
    .filter((r) => r.path.endsWith(route) && r.status === 200 && Object.values(r.query).includes(employee));

describe('strings of any length from the service (issue 23)', () => {
  it('10,000-character names, site name and leave type: each punch answers registered with its NSR and time, the day and the receipt; delivered once', async () => {
    const { time, mock, agent, bridge, logs } = await setup({ longStrings: LONG });
    // An approved whole-day leave today: its type comes back 10,000 characters long.
    mock.addLeave({ employee: '1001', type: 'Licença médica', start_date: TODAY, end_date: TODAY, approved: true });
    const events = rig.listen(bridge);

    const first = await punch(bridge, '1001');
    expect({ date: first.localDate, time: first.localTime, repeat: first.repeat, nsr: first.nsr }).toEqual({
      date: TODAY,
      time: '10:00',
      repeat: false,
      nsr: expect.any(Number),
    });
    expectText(first.employeeName, ANA);
    expectText(first.receipt?.employeeName, ANA);
    expectText(first.receipt?.employer.name, EMPLOYER);
    expect(Buffer.byteLength(first.receipt?.text ?? '', 'utf8')).toBeLessThanOrEqual(RECEIPT_QR_MAX_BYTES);
    expect(first.day?.direction).toBe('entry');

    // Delivered; the day (timesheet, leaves) fetched in the background; the next punch shows the leave.
    await time.advanceUntil(
      () => agent.status().queue.sent === 1 && askedFor(mock, '/work-leaves', '1001').length > 0,
      'delivered and the leaves read',
    );
    await time.advance(5 * 60_000, 60_000);
    const second = await punch(bridge, '1001');
    expect(second.nsr).toBe((first.nsr ?? 0) + 1);
    expect(second.localTime > first.localTime).toBe(true);
    expectText(second.employeeName, ANA);
    expect(second.day?.direction).toBe('exit');
    expect(second.day?.leave?.kind).toBe('other');
    expectText(second.day?.leave?.type, padText('Licença médica', LONG));

    // Another employee, and the same employee again hours later: still registered.
    const other = await punch(bridge, '1002');
    expect(other.employeeName?.length).toBe(LONG);
    await time.advance(3 * 3_600_000, 600_000);
    const later = await punch(bridge, '1001');
    expect(later.localTime >= '13:00').toBe(true);
    expect(later.day?.direction).toBe('entry');
    expectText(later.day?.leave?.type, padText('Licença médica', LONG));

    // The idle screen's site name, and the admin screen's lists, whole.
    const status = (json(await rig.api(bridge, 'status', {})) as { value: StatusView }).value;
    expectText(status.site?.name, padText('Obra Centro — São Paulo', LONG));
    const login = json(await rig.api(bridge, 'adminLogin', { pin: ADMIN_PIN })) as { value: { ok: boolean } };
    expect(login.value.ok).toBe(true);
    const found = json(await rig.api(bridge, 'findPunches', { employee: '1001', date: TODAY })) as {
      ok: boolean;
      value: { employees: { name: string }[]; punches: { nsr: number; employeeName: string }[] };
    };
    expect(found.ok).toBe(true);
    expect(found.value.employees).toHaveLength(1);
    expectText(found.value.employees[0]?.name, ANA);
    expect(found.value.punches.map((p) => p.nsr)).toEqual([first.nsr, second.nsr, later.nsr]);

    // Every punch delivered exactly once; each event reached the screen, with the call's id.
    await time.advanceUntil(() => agent.status().queue.sent === 4, 'all four delivered');
    expect(mock.records()).toHaveLength(4);
    expect([...recordCounts(mock.records()).values()].every((n) => n === 1)).toBe(true);
    await time.advanceUntil(
      () => (events.text().match(/event: punch/g) ?? []).length === 4,
      'four punch events',
      5_000,
    );
    const sent = events
      .text()
      .split('\n\n')
      .filter((b) => b.startsWith('event: punch'))
      .map((b) => JSON.parse(b.slice(b.indexOf('data: ') + 6)) as Registered & { requestId?: string });
    expect(sent.map((e) => [e.ok, e.nsr, e.requestId])).toEqual([
      [true, first.nsr, 'r-1001'],
      [true, second.nsr, 'r-1001'],
      [true, other.nsr, 'r-1002'],
      [true, later.nsr, 'r-1001'],
    ]);
    // The contract took them as they are: nothing cut, no answer outside it.
    expect(logs.filter((l) => /outside the contract|cut for the screen/.test(l))).toEqual([]);
  });

  it('beyond the 64 Ki memory bound a name is cut with a mark when read, and the punch is registered all the same', async () => {
    const { time, agent, bridge } = await setup({ longStrings: 100_000 });
    const r = await punch(bridge, '1003');
    expectText(r.employeeName, cutText(padText('Maria Aparecida dos Santos', 100_000), SERVICE_TEXT_MAX));
    expect(r.employeeName?.endsWith('…')).toBe(true);
    expect(r.nsr).toBeGreaterThan(0);
    expect(Buffer.byteLength(r.receipt?.text ?? '', 'utf8')).toBeLessThanOrEqual(RECEIPT_QR_MAX_BYTES);
    await time.advanceUntil(() => agent.status().queue.sent === 1, 'delivered');
  });

  it('a day the service lists with more records than the screen takes: the answer keeps the new punch and the 47 before it', async () => {
    const { time, mock, bridge } = await setup({});
    for (let m = 0; m < 60; m++)
      mock.addRecord({
        employee: '1004',
        time: `${TODAY}T0${Math.floor(m / 10)}:${String((m % 10) * 5).padStart(2, '0')}`,
      });
    await punch(bridge, '1004');
    await time.advanceUntil(() => askedFor(mock, '/timesheets', '1004').length > 0, 'the day read');
    await time.advance(5 * 60_000, 60_000);
    const r = await punch(bridge, '1004');
    expect(r.day?.punches).toHaveLength(48);
    expect(r.day?.punches.at(-1)).toMatchObject({ time: r.localTime, isNew: true });
    expect(r.day?.punches.filter((p) => p.fromService)).toHaveLength(46);
  });

  it('the headless console prints the punch line with its NSR; the name cut to its first 120 characters', async () => {
    const mock = await startMockServer({ rateLimit: { limit: 60, windowMs: 1_000 }, variants: { longStrings: LONG } });
    rig.cleanups.push(() => mock.close());
    const t = tempDir();
    rig.cleanups.push(t.cleanup);
    const env = {
      TIMECLOCK_API_URL: mock.url,
      TIMECLOCK_API_TOKEN: 'demo-token',
      TIMECLOCK_DATA_DIR: t.dir,
      TIMECLOCK_LOG_LEVEL: 'error',
    };
    const res = await runCli(['start', '--headless'], env, '1001\n', 30_000);
    expect(res.code).toBe(0);
    const line = res.stdout.split('\n').find((l) => l.startsWith('registered '));
    const name = cutText(ANA, CONSOLE_NAME_MAX);
    expect(line).toMatch(new RegExp(`^registered ${name} \\d\\d:\\d\\d — NSR \\d{9} — entry$`));
    expect(mock.records()).toHaveLength(1);
  });
});
