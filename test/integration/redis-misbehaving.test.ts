/**
 * A "Redis" that answers what the fleet's scripts never return (issue 24, item 5): a RESP fake on
 * loopback (test/helpers/resp-fake.ts) that ioredis connects to as to a Redis, answering the
 * scripts with strings, non-numbers, negative or absurd waits, arrays of the wrong length and error
 * replies. Such a Redis is out of reach, not a partner: the terminal goes on at its own share, says
 * once what came back, asks again after a growing back-off, and its CPU stays low.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { statusText } from '../../src/cli/status/format.js';
import { createLogger } from '../../src/log.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { BadRedisAnswer, describeAnswer } from '../../src/sync/window/redis-answers.js';
import { Priority } from '../../src/sync/window/rate-budget.js';
import { RedisSharedWindow } from '../../src/sync/window/redis-window.js';
import { testAgent } from '../helpers/agent.js';
import { apiRequests, pause, punchBacklog } from '../helpers/fleet.js';
import { startRespFake, type Resp } from '../helpers/resp-fake.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** What the fake answers the scripts, in turn: each is wrong in type, range or shape. */
const GARBAGE: { answer: Resp; says: RegExp }[] = [
  { answer: { bulk: 'OK' }, says: /^Redis answered the string "OK" to the take script$/ },
  { answer: { arr: [{ bulk: '1' }, { bulk: '0' }] }, says: /^Redis answered \["1", "0"\] to the take script$/ },
  { answer: { arr: [{ int: 0 }, { int: -250 }] }, says: /^Redis answered \[0, -250\] to the take script$/ },
  { answer: { arr: [{ int: 0 }, { int: 86_400_000 }] }, says: /^Redis answered \[0, 86400000\] to the take script$/ },
  { answer: { arr: [{ int: 1 }] }, says: /^Redis answered \[1\] to the take script$/ },
  { answer: { arr: [{ int: 1 }, { int: 0 }, { int: 0 }] }, says: /^Redis answered \[1, 0, 0\] to the take script$/ },
  { answer: { int: 1 }, says: /^Redis answered the integer 1 to the take script$/ },
  {
    answer: { err: 'ERR something odd' },
    says: /^Redis answered an error reply "ERR something odd" to the take script$/,
  },
  { answer: { bulk: null }, says: /^Redis answered nil to the take script$/ },
];

async function fakeWith(pick: (n: number) => Resp) {
  const fake = await startRespFake((cmd, _args, n) => (cmd === 'eval' || cmd === 'evalsha' ? pick(n) : undefined));
  cleanups.push(() => fake.close());
  return fake;
}

describe('every script answer is checked', () => {
  it.each(GARBAGE)('$answer is a bad answer, named in the error', async ({ answer, says }) => {
    const fake = await fakeWith(() => answer);
    const w = new RedisSharedWindow({ url: fake.url, key: 'k', terminalId: 'T', limit: 5, inFlightMs: 300 });
    cleanups.push(() => w.close());
    await waitFor(() => w.reachable, 'connected to the fake', 5_000);
    const err = await w.take(Priority.punch, 1, 1_000).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BadRedisAnswer);
    expect((err as Error).message).toMatch(says);
  });

  it('a long or unprintable answer is described short and printable', () => {
    const said = describeAnswer(`\u0000\u001b[31mred${'x'.repeat(500)}\u2028`);
    expect(said.length).toBeLessThanOrEqual(120);
    expect(said).toMatch(/^[\x20-\x7e…]*$/);
    expect(said).toContain('\\u001b');
    expect(describeAnswer([1, [2, [3, [4]]], 'a', 'b', 'c'])).toBe('[1, [2, an array of 2], "a", "b", … 5 in all]');
  });
});

describe('an agent whose "Redis" answers garbage', () => {
  it('delivers at its own share for 20 s, warns once naming what came back, asks again after a growing back-off, CPU bounded', async () => {
    const WINDOW_MS = 1_000;
    const SHARE = 3;
    const SPAN_MS = 20_000;
    const fake = await fakeWith((n) => (GARBAGE[n % GARBAGE.length] as (typeof GARBAGE)[number]).answer);
    const mock = await startMockServer({
      seed: generatedSeed({ employees: 100, sites: 1 }),
      rateLimit: { limit: 10, windowMs: WINDOW_MS },
    });
    cleanups.push(() => mock.close());
    const logs: { level: string; msg: string; error?: string }[] = [];
    const log = createLogger({ level: 'info', write: (l) => logs.push(JSON.parse(l) as (typeof logs)[number]) });
    const { dir, cleanup } = tempDir('timeclock-garbage-');
    cleanups.push(cleanup);
    const agent = testAgent({
      dataDir: dir,
      mock,
      log,
      settings: {
        terminalId: 'T',
        rateLimit: { limit: SHARE, windowMs: WINDOW_MS, accountLimit: 10, redisUrl: fake.url },
      },
    });
    cleanups.push(() => agent.stop());
    await agent.start({ awaitRosterIfEmpty: true });
    await punchBacklog(agent, 0, 100); // more than the share can send in the span
    await waitFor(() => agent.status().rate?.shared === 'fallback-local', 'on its own share', 5_000);
    await pause(WINDOW_MS); // what went out as the roster was fetched is out of the window

    const callsBefore = fake.scriptCalls();
    const since = Date.now();
    const cpuBefore = process.cpuUsage();
    await pause(SPAN_MS);
    const cpu = process.cpuUsage(cpuBefore);
    const spanMs = Date.now() - since;
    const posts = apiRequests(mock, since).filter((r) => r.method === 'POST' && r.at <= since + spanMs);

    // At its share: SHARE per window (a slot counts from the request to one window after its answer).
    const perWindow = (posts.length * WINDOW_MS) / spanMs;
    expect(perWindow).toBeGreaterThanOrEqual(SHARE * 0.9);
    expect(posts.every((r) => r.status === 201)).toBe(true);
    // The test's whole process (agent, mock API and fake) over the span: well under a quarter of one core.
    const cpuShare = (cpu.user + cpu.system) / 1_000 / spanMs;
    console.log(
      `garbage Redis: ${posts.length} punches in ${spanMs} ms (${perWindow.toFixed(2)} per window, share ${SHARE}); ` +
        `CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms = ${(cpuShare * 100).toFixed(1)} % of one core; ${fake.scriptCalls() - callsBefore} script calls`,
    );
    expect(cpuShare).toBeLessThan(0.25);
    // Asked again after a back-off that grows (250 ms doubling, capped at 30 s), and the registry every 10 s: a handful
    // of calls, not thousands.
    expect(fake.scriptCalls() - callsBefore).toBeLessThanOrEqual(12);

    const s = agent.status();
    expect(s.rate).toMatchObject({ shared: 'fallback-local', reason: 'bad_answer' });
    expect(s.rate?.redisError?.message).toMatch(/^Redis answered .+ to the (take|restore) script$/);
    expect(statusText(s)).toMatch(
      /^shared window: LOCAL FALLBACK: Redis answers what the scripts never return \(Redis answered .+\); this terminal sends at its own share/m,
    );
    // One warning, naming what came back; no line saying the window is shared.
    const warnings = logs.filter((l) => l.level === 'warn' && l.msg.startsWith('rate window:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(
      /^rate window: Redis answered .+ to the (take|restore) script: Redis misbehaves, this terminal goes on at its own share$/,
    );
    expect(logs.filter((l) => /sharing the account window/.test(l.msg))).toEqual([]);
  }, 60_000);
});
