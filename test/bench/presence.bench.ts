/**
 * Who is on site at scale (issue 30 item 5): a site of 5,000 people and 3 terminals sharing a real
 * redis-server, the stream bounded at `presence.streamMaxLen` = 2,000 (so trimming happens during
 * the run). The 5,000 enter across the three terminals (each punch answered after its commit;
 * publishing follows it); then: how long until every board shows 5,000, how long the board takes
 * to build (target < 50 ms), how long the stream is (bounded), and the punch's answer time beside
 * a terminal of the same site without Redis (the baseline, measured in the same run).
 */
import { createClient } from './redis-client.js';
import type { Agent } from '../../src/agent/facade/agent.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { startRedis } from '../helpers/redis-server.js';
import { percentile, ratio, summarizeNs, type Result } from './report.js';
import { benchAgent, sleep, tempDir } from './support.js';

const PEOPLE = Number(process.env.PRESENCE_BENCH_PEOPLE ?? 5_000);
const TERMINALS = 3;
/** The default, about a day of a large site's punches (config-presence.ts). */
const MAX_LEN = 50_000;
const BOARD_RUNS = 30;
const BASELINE_PUNCHES = 1_500;

async function until(pred: () => boolean, ms: number, everyMs: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) return false;
    await sleep(everyMs);
  }
  return true;
}

/** The three terminals punch at once, each every third person of `from`..`from + n - 1`; each answer's time. */
async function shiftChange(agents: Agent[], from: number, n: number): Promise<bigint[]> {
  const answerNs: bigint[] = [];
  await Promise.all(
    agents.map(async (agent, k) => {
      for (let i = from + k; i < from + n; i += agents.length) {
        const s = process.hrtime.bigint();
        const r = await agent.punch({ kind: 'badge', value: String(100000 + i) });
        answerNs.push(process.hrtime.bigint() - s);
        if (!r.ok) throw new Error(`punch ${i} refused: ${JSON.stringify(r)}`);
      }
    }),
  );
  return answerNs;
}

export async function benchPresence(): Promise<Result> {
  const redis = await startRedis();
  const mock = await startMockServer({
    seed: generatedSeed({ employees: PEOPLE + BASELINE_PUNCHES, sites: 1 }),
    rateLimit: { limit: 100_000, windowMs: 1_000 },
  });
  process.stderr.write('presence bench: starting terminals\n');
  const dirs: { cleanup: () => void }[] = [];
  const agents: Agent[] = [];
  try {
    const start = async (id: string, withRedis: boolean): Promise<Agent> => {
      const d = tempDir(`timeclock-presence-${id}-`);
      dirs.push(d);
      const rateLimit = {
        limit: 1_000,
        windowMs: 1_000,
        accountLimit: 3_000,
        ...(withRedis ? { redisUrl: redis.url } : {}),
      };
      const agent = benchAgent({
        dataDir: d.dir,
        baseUrl: mock.url,
        rateLimit,
        extra: { terminalId: id, presence: { streamMaxLen: MAX_LEN, pollMs: 100 }, selfService: { enabled: false } },
      });
      agents.push(agent);
      await agent.start({ awaitRosterIfEmpty: true });
      return agent;
    };
    const fleet: Agent[] = [];
    for (let i = 0; i < TERMINALS; i++) fleet.push(await start(`gate-${i + 1}`, true));
    const alone: Agent[] = [];
    for (let i = 0; i < TERMINALS; i++) alone.push(await start(`alone-${i + 1}`, false));
    await until(() => fleet.every((a) => a.presence.board().sources.stream.state === 'live'), 10_000, 250);

    // Each terminal takes every third person; the three run at once, as three gates at a shift change.
    const t0 = Date.now();
    const answerNs = await shiftChange(fleet, 0, PEOPLE);
    const punchedMs = Date.now() - t0;
    const converged = await until(() => fleet.every((a) => a.presence.board().counts.onSite === PEOPLE), 120_000, 250);
    const convergedMs = Date.now() - t0;
    const boards = fleet.map((a) => a.presence.board());
    const counts = boards.map((b) => b.counts.onSite);
    const bySource = boards.map((b) => ({
      own: b.onSite.filter((p) => p.source === 'own').length,
      stream: b.onSite.filter((p) => p.source === 'stream').length,
    }));
    process.stderr.write(
      `presence bench: on each board ${JSON.stringify(counts)} ${JSON.stringify(bySource)} ${JSON.stringify(boards.map((b) => b.sources))}\n`,
    );
    // The same shift change (fewer people) at three terminals without Redis: nothing published.
    const baselineNs = await shiftChange(alone, PEOPLE, BASELINE_PUNCHES);
    const withRedis = summarizeNs(answerNs);
    const baseline = summarizeNs(baselineNs);

    const boardMs: number[] = [];
    const reader = fleet[TERMINALS - 1] as Agent;
    // The first build after the names' cache expired reads the whole roster's names (one query).
    await sleep(31_000);
    const first = process.hrtime.bigint();
    reader.presence.board();
    const firstBoardMs = Number(process.hrtime.bigint() - first) / 1e6;
    for (let i = 0; i < BOARD_RUNS; i++) {
      const s = process.hrtime.bigint();
      reader.presence.board();
      boardMs.push(Number(process.hrtime.bigint() - s) / 1e6);
    }
    boardMs.sort((a, b) => a - b);
    const client = createClient(redis.url);
    const keys = await client.keys('*:presence:*');
    const lengths = await Promise.all(keys.map((k) => client.xlen(k)));
    const memory = keys[0] ? await client.memory('USAGE', keys[0]) : null;
    client.disconnect();
    const streamLen = Math.max(0, ...lengths);
    const p50 = percentile(boardMs, 0.5);
    const p99 = percentile(boardMs, 0.99);
    return {
      name: 'presence',
      title: `Presence: ${PEOPLE} on site, ${TERMINALS} terminals, one redis-server (stream MAXLEN ~ ${MAX_LEN})`,
      tables: [
        {
          title: 'figures',
          columns: ['what', 'value'],
          rows: [
            [`${PEOPLE} entries taken (3 terminals at once), s`, punchedMs / 1000],
            ['until every board shows them all, s', converged ? convergedMs / 1000 : null],
            ["first board build after the names cache expired (reads the roster's names), ms", firstBoardMs],
            ['board build p50, ms', p50],
            ['board build p99, ms', p99],
            ['board build max, ms', boardMs.at(-1) ?? null],
            ['stream length (XLEN)', streamLen],
            ['stream memory (MEMORY USAGE), bytes', typeof memory === 'number' ? memory : null],
            ['punch answer p50 with Redis, ms', withRedis.p50Ms],
            ['punch answer p99 with Redis, ms', withRedis.p99Ms],
            ['punch answer p50 without Redis (baseline), ms', baseline.p50Ms],
            ['punch answer p99 without Redis (baseline), ms', baseline.p99Ms],
          ],
        },
      ],
      targets: [
        { what: 'board build p99 (ms)', value: p99, target: '< 50', met: p99 < 50 },
        {
          what: 'stream length',
          value: streamLen,
          target: `≤ ${MAX_LEN} (MAXLEN ~)`,
          met: streamLen <= MAX_LEN * 1.05,
        },
        {
          what: 'punch answer p50, with / without Redis',
          value: ratio(withRedis.p50Ms, baseline.p50Ms),
          target: '≤ 1.5',
          met: (ratio(withRedis.p50Ms, baseline.p50Ms) ?? Infinity) <= 1.5,
        },
        { what: 'every board complete', value: converged ? 1 : 0, target: '1', met: converged },
      ],
      notes: [
        `Every answer of the three terminals (publishing after each commit) against ${BASELINE_PUNCHES} of three terminals without Redis taking the same shift change, same process, same mock.`,
        "The three terminals and the baseline share one process and two cores with the mock and redis-server: answer times include each other's work.",
      ],
      raw: {
        firstBoardMs,
        counts,
        bySource,
        punchedMs,
        convergedMs,
        converged,
        boardMs,
        streamLen,
        lengths,
        memory,
        withRedis,
        baseline,
      },
    };
  } finally {
    await Promise.all(agents.map((a) => a.stop()));
    await mock.close();
    await redis.stop();
    for (const d of dirs) d.cleanup();
  }
}

// `node dist/test/bench/presence.bench.js`: this bench alone.
if (process.argv[1]?.endsWith('presence.bench.js')) {
  const { renderResult } = await import('./report.js');
  process.stdout.write(renderResult(await benchPresence()) + '\n');
}
