/**
 * What one in-doubt punch costs until it is resolved or handed to a person, for each `GET /times`
 * the specification allows (issue 11): requests of the account's budget, and the time it takes.
 *
 * Ten punches per variant are made in doubt the way the field makes them (the service stores the
 * record, the answer is lost: the mock's drop-after-store fault), then reconciled by a real agent
 * (real SQLite, the mock in this process on loopback). The retry back-off runs 20× faster than the
 * configuration's default (2 s doubling to 60 s) so the bench takes seconds; times are reported
 * scaled back. Baseline: the variant the specification shows.
 */
import type { Agent } from '../../src/agent/facade/agent.js';
import { buildAgent, realRuntime } from '../../src/agent/build-agent.js';
import { configSchema, type Config } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { startMockServer, type ServerVariants } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { ratio, type Cell, type Result, type Table } from './report.js';
import { sleep, tempDir, withTimeout } from './support.js';

const PUNCHES = 10;
const SCALE = 20;
const DEFAULT_RETRY = { baseMs: 2_000, maxMs: 60_000 };
const LIMIT_MS = 60_000;

type Variant = { name: string; variants: ServerVariants };
const VARIANTS: Variant[] = [
  { name: 'records as the spec shows them (baseline)', variants: {} },
  { name: 'time with seconds', variants: { timesTimeFormat: 'seconds' } },
  { name: 'time with seconds and offset', variants: { timesTimeFormat: 'offset' } },
  { name: 'end date exclusive', variants: { timesEndExclusive: true } },
  { name: 'GET /times answers 404', variants: { timesAnswer: 404 } },
  { name: 'GET /times answers 400', variants: { timesAnswer: 400 } },
];

type Measured = {
  name: string;
  resolved: number;
  handedOver: number;
  gets: number;
  posts: number;
  ms: number;
  duplicates: number;
};

async function measure(v: Variant): Promise<Measured> {
  const mock = await startMockServer({
    seed: demoSeed(),
    rateLimit: { limit: 600, windowMs: 60_000 },
    variants: v.variants,
  });
  const dir = tempDir('timeclock-bench-reconcile-');
  let agent: Agent | null = null;
  try {
    const config = configSchema.parse({
      dataDir: dir.dir,
      api: { baseUrl: mock.url, token: 'demo-token', timeoutMs: 2_000 },
      timezone: 'America/Sao_Paulo',
      rateLimit: { limit: 600, windowMs: 60_000 },
      retry: { baseMs: DEFAULT_RETRY.baseMs / SCALE, maxMs: DEFAULT_RETRY.maxMs / SCALE, inDoubtGraceMs: 100 },
    }) as Config & { api: NonNullable<Config['api']> };
    agent = buildAgent(config, realRuntime(silentLogger));
    await agent.start({ awaitRosterIfEmpty: true });
    mock.setFaults({ dropAfterStore: 1, only: { method: 'POST', pathPrefix: '/times' }, afterMatches: 0 });
    for (let i = 1; i <= PUNCHES; i++) await agent.punch({ kind: 'id', value: String(1000 + i) });
    while (mock.records().length < PUNCHES) await sleep(10);
    mock.setFaults(null);
    const t0 = performance.now();
    const a = agent;
    const done = await withTimeout(
      (async () => {
        for (;;) {
          const q = a.status().queue;
          if (q.sent + q.held === PUNCHES) return q;
          await sleep(20);
        }
      })(),
      LIMIT_MS,
    );
    const ms = performance.now() - t0;
    if (done.timedOut) throw new Error(`${v.name}: not settled within ${LIMIT_MS / 1000} s`);
    // Every GET /times is a reconciliation check; every POST past the first of each punch is a resend.
    const log = mock.requests();
    const keys = new Map<string, number>();
    for (const r of mock.records())
      keys.set(`${r.employee_id}|${r.time}`, (keys.get(`${r.employee_id}|${r.time}`) ?? 0) + 1);
    return {
      name: v.name,
      resolved: done.value.sent,
      handedOver: done.value.held,
      gets: log.filter((r) => r.method === 'GET' && r.path.endsWith('/times')).length,
      posts: log.filter((r) => r.method === 'POST').length - PUNCHES,
      ms,
      duplicates: [...keys.values()].filter((n) => n > 1).length,
    };
  } finally {
    await agent?.stop();
    dir.cleanup();
    await mock.close();
  }
}

export async function benchReconcile(): Promise<Result> {
  const rows: Measured[] = [];
  for (const v of VARIANTS) rows.push(await measure(v));
  const base = rows[0] as Measured;
  const perPunch = (m: Measured) => (m.gets + m.posts) / PUNCHES;
  const row = (m: Measured): Cell[] => [
    m.name,
    m.resolved,
    m.handedOver,
    m.gets / PUNCHES,
    m.posts / PUNCHES,
    perPunch(m),
    ratio(perPunch(m), perPunch(base)),
    (m.ms * SCALE) / 1000,
    m.duplicates,
  ];
  const table: Table = {
    title: `${PUNCHES} in-doubt punches per variant (stored by the service, answer lost), until resolved or handed to a person`,
    columns: [
      'GET /times',
      'sent',
      'to a person',
      'GETs/punch',
      'POSTs/punch',
      'requests/punch',
      '÷ baseline',
      's at default back-off',
      'duplicates',
    ],
    rows: rows.map(row),
  };
  const worst = Math.max(...rows.map((m) => m.gets / PUNCHES));
  const maxChecks = configSchema.shape.retry.parse(undefined).maxChecks;
  return {
    name: 'reconcile',
    title: 'reconciliation: requests one in-doubt punch costs, per GET /times variant',
    tables: [table],
    targets: [
      {
        what: 'records on the service twice',
        value: rows.reduce((s, m) => s + m.duplicates, 0),
        target: '0',
        met: rows.every((m) => m.duplicates === 0),
      },
      {
        what: 'most checks (GET /times) for one in-doubt punch, any variant',
        value: worst,
        target: `≤ ${maxChecks} (retry.maxChecks)`,
        met: worst <= maxChecks,
      },
      {
        what: 'punches sent again after the answer was lost',
        value: rows.reduce((s, m) => s + m.posts, 0),
        target: '0',
        met: rows.every((m) => m.posts === 0),
      },
    ],
    notes: [
      `back-off ${DEFAULT_RETRY.baseMs / SCALE} ms doubling to ${DEFAULT_RETRY.maxMs / SCALE} ms here (the default ${DEFAULT_RETRY.baseMs / 1000} s to ${DEFAULT_RETRY.maxMs / 1000} s, ÷ ${SCALE}); "s at default back-off" = measured × ${SCALE}`,
      "POSTs/punch counts sends after the answer was lost (0: never sent twice); requests/punch is what the account's budget pays from the lost answer on",
      'before this change: a 404 or 400 to GET /times resent the punch (a duplicate) or asked again every 2 s for ever (~30 of the 60 requests a minute)',
    ],
    raw: { punches: PUNCHES, scale: SCALE, rows },
  };
}
