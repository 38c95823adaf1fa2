/**
 * A big roster: credential lookup latency with 100,000 employees and 100,000 enrolled badges, the
 * agent process's peak RSS with that roster, and the time of a full roster sync.
 *
 * 1. Lookups: a real SQLite file (openDatabase in a temp dir, same pragmas as the terminal), the
 *    roster written by Roster.replace from the generated seed, one badge per employee enrolled by
 *    Identities.enroll (one transaction). Each `resolveCredential(code, input, rules, lookups)`
 *    call, with the default identity rules of the config, is timed on its own; the kinds are
 *    interleaved call by call so they all see the same machine. Baseline: a bare primary-key
 *    `SELECT * FROM roster_employees WHERE id = ?` on the same connection, interleaved likewise.
 * 2. Peak RSS: a child node process (rss-child.ts) builds a real agent against the mock (in a
 *    process of its own, 100,000 employees), syncs the whole roster (1,000 pages of 100), enrolls
 *    100,000 badges, punches 10,000 of them with the uploader running, and reports its
 *    `process.resourceUsage().maxRSS`. Baseline: a child that only builds an agent (empty roster).
 * 3. Sync time: a fresh agent against a mock process with 10,000 employees and no effective rate
 *    limit; `agent.syncRoster()` end to end (100 pages of 100). Baseline: the same pages fetched
 *    by a plain sequential undici loop that only parses the JSON (no zod, no SQLite). Rounds are
 *    interleaved agent / baseline.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import type { Agent } from '../../src/agent/agent.js';
import { BASIC_AUTH_USER, MAX_PAGE_SIZE } from '../../src/api/shapes.js';
import { configSchema } from '../../src/config.js';
import { cpfFromBase } from '../../src/domain/cpf.js';
import { resolveCredential, type IdentityRules, type InputKind, type LookupKey, type Resolution } from '../../src/domain/identity.js';
import { generatedSeed, objectIdFor } from '../../src/mock/seed.js';
import { openDatabase, type DurableDb as Db } from '../../src/store/database.js';
import { Identities } from '../../src/store/identities.js';
import { Roster, type RosterEmployee } from '../../src/store/roster.js';
import { rosterRowOf } from '../../src/sync/roster-rows.js';
import { startMockProcess, type MockProcess } from './mock-process.js';
import { ratio, summarizeNs, type Cell, type LatencySummary, type Result, type Table, type Target } from './report.js';
import { badgeCode, benchAgent, seededRandom, tempDir, withTimeout } from './support.js';
import type { ChildArgs, ChildReport } from './rss-child.js';

/** The V8 flags the terminal is launched with (package.json start, assets/bin/timeclock). */
const V8_FLAGS = ['--max-semi-space-size=4'];
/** Mirrors ENROLL_CACHE_KIB of rss-child.ts (importing it would run the child). */
const ENROLL_CACHE_KIB = 1024;

const EMPLOYEES = 100_000;
const LOOKUPS = 20_000;
const LOOKUP_WARMUP = 1_000;
const TARGET_P99_MS = 0.2;

const RSS_PUNCHES = 10_000;
/** The goal is 150 MB: decimal megabytes, 150 × 10^6 bytes (= 143.05 MiB). */
const TARGET_RSS_MB = 150;
const CHILD_LIMIT_MS = 120_000;
const CHILD_FLUSH_MAX_MS = 30_000;

const SYNC_EMPLOYEES = 10_000;
/** The one site of the mock process's generated seed. */
const GEN_SITE_ID = objectIdFor('gen-site', 0);
const SYNC_ROUNDS = 3;
const SYNC_LIMIT_MS = 30_000;

/** The mock's rule: present, but never reached. */
const MOCK_RULE = { limit: 1_000_000, windowMs: 60_000 };
/** The agent's own budget must not be the limit either: the config's largest limit, per second. */
const AGENT_RATE = { limit: 10_000, windowMs: 1_000 };
/** The configuration default: how a terminal runs at a site. */
const PRODUCTION_RATE = { limit: 60, windowMs: 60_000 };

const MIB = 1024 * 1024;
const MB = 1e6;
const CHILD_SCRIPT = fileURLToPath(new URL('./rss-child.js', import.meta.url));
const externalId = (i: number) => String(100000 + i);
const maskCpf = (c: string) => `${c.slice(0, 3)}.${c.slice(3, 6)}.${c.slice(6, 9)}-${c.slice(9)}`;
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

// ---- 1. lookup latency ----------------------------------------------------------------------------

type Probe = { code: string; expect: { kind: 'found'; key: LookupKey; id: string } | { kind: 'unknown' } };
type LookupKind = { name: string; input: InputKind; probes: Probe[]; samples: bigint[]; asExpected: number; ambiguous: number; wrong: number };

type LookupMeasured = {
  kinds: { name: string; input: InputKind; keysTried: string; lat: LatencySummary; asExpected: number; ambiguous: number; wrong: number }[];
  baseline: LatencySummary;
  setupMs: { seed: number; rosterReplace: number; enroll: number };
  rosterSize: number;
  enrolled: number;
  dbBytes: number | null;
  cpfShared: number;
};

function judge(kind: LookupKind, probe: Probe, r: Resolution<RosterEmployee>): void {
  const e = probe.expect;
  if (e.kind === 'unknown') {
    if (r.kind === 'unknown') kind.asExpected++;
    else kind.wrong++;
  } else if (r.kind === 'found' && r.key === e.key && r.employee.id === e.id) kind.asExpected++;
  else if (r.kind === 'ambiguous' && r.key === e.key) kind.ambiguous++;
  else kind.wrong++;
}

async function measureLookups(): Promise<LookupMeasured> {
  const dir = tempDir('timeclock-bench-roster-');
  let db: Db | null = null;
  try {
    db = openDatabase(dir.dir);
    let t0 = performance.now();
    const seed = generatedSeed({ employees: EMPLOYEES, sites: 1 });
    const seedMs = performance.now() - t0;
    const employees = seed.employees.flatMap((e) => {
      const r = rosterRowOf(e);
      return r.ok ? [r.employee] : [];
    });

    t0 = performance.now();
    const roster = new Roster(db);
    roster.replace(employees);
    const rosterMs = performance.now() - t0;

    t0 = performance.now();
    const identities = new Identities(db);
    const at = Date.now();
    db.transaction(() => {
      for (let i = 0; i < employees.length; i++) identities.enroll(badgeCode(i), (employees[i] as RosterEmployee).id, at, 'bench');
    })();
    const enrollMs = performance.now() - t0;

    const rules: IdentityRules = configSchema.parse({ dataDir: '.' }).identity;
    const lookups = identities.lookups;
    const byId = db.prepare('SELECT * FROM roster_employees WHERE id = ?');

    // CPFs of the seed are random: a few are shared by two employees (a CPF lookup then refuses
    // to guess). Counted, not avoided: the lookup does the same work either way.
    const cpfCount = new Map<string, number>();
    for (const e of employees) if (e.cpf) cpfCount.set(e.cpf, (cpfCount.get(e.cpf) ?? 0) + 1);
    let cpfShared = 0;
    for (const n of cpfCount.values()) if (n > 1) cpfShared += n;

    const random = seededRandom(0x5eed);
    const total = LOOKUP_WARMUP + LOOKUPS;
    const pick = () => Math.floor(random() * employees.length);
    const unknownCpf = (): string => {
      for (;;) {
        const base = String(Math.floor(random() * 1e9)).padStart(9, '0');
        if (/^(\d)\1{8}$/.test(base)) continue;
        const cpf = cpfFromBase(base);
        if (!cpfCount.has(cpf)) return cpf;
      }
    };
    const make = (name: string, input: InputKind, probe: (i: number) => Probe): LookupKind => ({
      name,
      input,
      probes: Array.from({ length: total }, () => probe(pick())),
      samples: [],
      asExpected: 0,
      ambiguous: 0,
      wrong: 0,
    });
    const found = (key: LookupKey, i: number) => ({ kind: 'found' as const, key, id: (employees[i] as RosterEmployee).id });
    const kinds: LookupKind[] = [
      make('badge code (badge)', 'badge', (i) => ({ code: badgeCode(i), expect: found('badge', i) })),
      make('external_id (id)', 'id', (i) => ({ code: externalId(i), expect: found('external_id', i) })),
      make('registration no. (id)', 'id', (i) => ({ code: (employees[i] as RosterEmployee).registration_number as string, expect: found('registration_number', i) })),
      make('masked CPF (id)', 'id', (i) => ({ code: maskCpf((employees[i] as RosterEmployee).cpf as string), expect: found('cpf', i) })),
      make('unknown badge (badge)', 'badge', () => ({ code: `BX${String(Math.floor(random() * 1e8)).padStart(8, '0')}`, expect: { kind: 'unknown' } })),
      make('unknown, valid CPF (id)', 'id', () => ({ code: unknownCpf(), expect: { kind: 'unknown' } })),
    ];
    const pkIds = Array.from({ length: total }, () => (employees[pick()] as RosterEmployee).id);
    const baseline: bigint[] = [];

    // Interleaved: in round r every kind (and the baseline) runs once, the starting one rotating.
    const runners: ((r: number) => void)[] = [
      ...kinds.map((k) => (r: number) => {
        const p = k.probes[r] as Probe;
        const s = process.hrtime.bigint();
        const res = resolveCredential(p.code, k.input, rules, lookups);
        const dt = process.hrtime.bigint() - s;
        if (r >= LOOKUP_WARMUP) {
          k.samples.push(dt);
          judge(k, p, res);
        }
      }),
      (r: number) => {
        const id = pkIds[r] as string;
        const s = process.hrtime.bigint();
        const row = byId.get(id) as RosterEmployee | undefined;
        const dt = process.hrtime.bigint() - s;
        if (row?.id !== id) throw new Error(`baseline lookup of ${id} found nothing`);
        if (r >= LOOKUP_WARMUP) baseline.push(dt);
      },
    ];
    for (let r = 0; r < total; r++) {
      for (let j = 0; j < runners.length; j++) (runners[(r + j) % runners.length] as (r: number) => void)(r);
    }

    const keysTried = (input: InputKind) => rules.order.filter((k) => rules.allowed[input].includes(k)).join(' → ');
    const pageCount = db.pragma('page_count', { simple: true }) as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    return {
      kinds: kinds.map((k) => ({ name: k.name, input: k.input, keysTried: keysTried(k.input), lat: summarizeNs(k.samples), asExpected: k.asExpected, ambiguous: k.ambiguous, wrong: k.wrong })),
      baseline: summarizeNs(baseline),
      setupMs: { seed: seedMs, rosterReplace: rosterMs, enroll: enrollMs },
      rosterSize: roster.size(),
      enrolled: identities.enrollmentCount(),
      dbBytes: Number.isFinite(pageCount * pageSize) ? pageCount * pageSize : null,
      cpfShared,
    };
  } finally {
    db?.close();
    dir.cleanup();
  }
}

// ---- 2. peak RSS of the agent process --------------------------------------------------------------

type ChildRun = { report: ChildReport; wallMs: number };

function runChild(args: ChildArgs): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    // Launched as the terminal is (assets/bin/timeclock, npm start): V8's young generation at 4 MiB.
    const child = spawn(process.execPath, [...V8_FLAGS, CHILD_SCRIPT, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, CHILD_LIMIT_MS);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const wallMs = performance.now() - t0;
      const tail = stderr.trim().split('\n').slice(-15).join('\n');
      if (timedOut) return reject(new Error(`rss child (${args.mode}) did not finish within ${CHILD_LIMIT_MS / 1000} s and was killed\n${tail}`));
      if (code !== 0) return reject(new Error(`rss child (${args.mode}) exited with ${code ?? signal}\n${tail}`));
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve({ report: JSON.parse(line) as ChildReport, wallMs });
      } catch {
        reject(new Error(`rss child (${args.mode}) printed no report: ${JSON.stringify(stdout.slice(-500))}\n${tail}`));
      }
    });
  });
}

async function measureRss(): Promise<{ empty: ChildRun; full: ChildRun; fast: ChildRun; mockStartMs: number }> {
  const t0 = performance.now();
  const mock = await startMockProcess({ employees: EMPLOYEES, rule: MOCK_RULE });
  const mockStartMs = performance.now() - t0;
  const emptyDir = tempDir('timeclock-bench-rss-empty-');
  const fullDir = tempDir('timeclock-bench-rss-full-');
  const fastDir = tempDir('timeclock-bench-rss-fast-');
  try {
    const common = { baseUrl: mock.url, employees: EMPLOYEES, punches: RSS_PUNCHES, rateLimit: AGENT_RATE, flushMaxMs: CHILD_FLUSH_MAX_MS };
    const empty = await runChild({ ...common, mode: 'empty', dataDir: emptyDir.dir });
    // As at a site: roster loaded (fast), then punching with the production rate limit.
    const full = await runChild({ ...common, mode: 'full', dataDir: fullDir.dir, punchRateLimit: PRODUCTION_RATE });
    // Harder than any site: the uploader delivering the 10,000 punches at the sync's limit.
    fastDir.cleanup();
    const fast = await runChild({ ...common, mode: 'full', dataDir: fastDir.dir });
    return { empty, full, fast, mockStartMs };
  } finally {
    await mock.close();
    emptyDir.cleanup();
    fullDir.cleanup();
    fastDir.cleanup();
  }
}

// ---- 3. full sync time -----------------------------------------------------------------------------

type SyncRound = { agentMs: number; agentRequests: number; agentEmployees: number; baselineMs: number; baselineRequests: number; baselineEmployees: number };

async function agentSync(mock: MockProcess): Promise<{ ms: number; requests: number; employees: number }> {
  const dir = tempDir('timeclock-bench-sync-');
  let agent: Agent | null = null;
  try {
    agent = benchAgent({ dataDir: dir.dir, baseUrl: mock.url, rateLimit: AGENT_RATE });
    const t0 = performance.now();
    const synced = await withTimeout(agent.syncRoster(), SYNC_LIMIT_MS);
    const ms = performance.now() - t0;
    if (synced.timedOut) throw new Error(`roster sync of ${SYNC_EMPLOYEES} employees did not finish within ${SYNC_LIMIT_MS / 1000} s`);
    if (!synced.value.ok) throw new Error(`roster sync failed: ${synced.value.error}`);
    const size = agent.status().roster.size;
    if (size !== SYNC_EMPLOYEES) throw new Error(`roster holds ${size} employees after sync, expected ${SYNC_EMPLOYEES}`);
    return { ms, requests: synced.value.requests, employees: synced.value.employees };
  } finally {
    await agent?.stop();
    dir.cleanup();
  }
}

/** The floor: the same GET /employees pages, one after another, JSON.parse only. */
async function baselineSync(mock: MockProcess): Promise<{ ms: number; requests: number; employees: number }> {
  const pool = new Pool(mock.origin, { connections: 1 });
  const auth = `Basic ${Buffer.from(`${BASIC_AUTH_USER}:demo-token`).toString('base64')}`;
  const path = new URL(mock.url).pathname.replace(/\/+$/, '');
  try {
    const run = async () => {
      let requests = 0;
      let employees = 0;
      let total: number | null = null;
      for (let page = 1; total === null || (page - 1) * MAX_PAGE_SIZE < total; page++) {
        requests++;
        const res = await pool.request({ method: 'GET', path: `${path}/employees?max_results=${MAX_PAGE_SIZE}&page=${page}`, headers: { authorization: auth } });
        if (res.statusCode !== 200) throw new Error(`baseline GET /employees page ${page}: ${res.statusCode}`);
        const body = (await res.body.json()) as { _items: unknown[]; _meta: { total: number } };
        total = body._meta.total;
        employees += body._items.length;
        if (body._items.length === 0) break;
      }
      return { requests, employees };
    };
    const t0 = performance.now();
    const done = await withTimeout(run(), SYNC_LIMIT_MS);
    const ms = performance.now() - t0;
    if (done.timedOut) throw new Error(`baseline page loop did not finish within ${SYNC_LIMIT_MS / 1000} s`);
    return { ms, ...done.value };
  } finally {
    await pool.destroy();
  }
}

async function measureSync(): Promise<SyncRound[]> {
  const mock = await startMockProcess({ employees: SYNC_EMPLOYEES, rule: MOCK_RULE });
  try {
    const rounds: SyncRound[] = [];
    for (let r = 0; r < SYNC_ROUNDS; r++) {
      // Alternate which goes first, so a warmer mock or JIT does not always favour the same one.
      let a: Awaited<ReturnType<typeof agentSync>>;
      let b: Awaited<ReturnType<typeof baselineSync>>;
      if (r % 2 === 0) {
        a = await agentSync(mock);
        b = await baselineSync(mock);
      } else {
        b = await baselineSync(mock);
        a = await agentSync(mock);
      }
      rounds.push({ agentMs: a.ms, agentRequests: a.requests, agentEmployees: a.employees, baselineMs: b.ms, baselineRequests: b.requests, baselineEmployees: b.employees });
    }
    const log = await mock.requests();
    const limited = log.filter((e) => e.status === 429).length;
    if (limited > 0) throw new Error(`the mock answered ${limited} requests with 429: the rate limit was not out of the way`);
    return rounds;
  } finally {
    await mock.close();
  }
}

// ---- 4. a server that caps its pages --------------------------------------------------------------

/** The account's limit on a window scaled 60:1 (60 per second for 60 per minute), so the bench takes seconds. */
const SCALED_RATE = { limit: 60, windowMs: 1_000 };
const SERVER_PAGE_CAP = 25;
const CAPPED_LIMIT_MS = 60_000;

type CappedSync = { label: string; requests: number; employees: number; ms: number };

/** A site's sync against the mock, within the account's limit: what the page cap costs in requests and time. */
async function cappedSync(label: string, variants: string[]): Promise<CappedSync> {
  const mock = await startMockProcess({ employees: SYNC_EMPLOYEES, rule: SCALED_RATE, variants });
  const dir = tempDir('timeclock-bench-capped-');
  let agent: Agent | null = null;
  try {
    agent = benchAgent({ dataDir: dir.dir, baseUrl: mock.url, rateLimit: SCALED_RATE, siteId: GEN_SITE_ID });
    const t0 = performance.now();
    const synced = await withTimeout(agent.syncRoster(), CAPPED_LIMIT_MS);
    const ms = performance.now() - t0;
    if (synced.timedOut) throw new Error(`${label}: sync did not finish within ${CAPPED_LIMIT_MS / 1000} s`);
    if (!synced.value.ok) throw new Error(`${label}: sync failed: ${synced.value.error}`);
    const limited = (await mock.requests()).filter((e) => e.status === 429).length;
    if (limited > 0) throw new Error(`${label}: the mock answered ${limited} requests with 429`);
    return { label, requests: synced.value.requests, employees: synced.value.employees, ms };
  } finally {
    await agent?.stop();
    dir.cleanup();
    await mock.close();
  }
}

// ---- the bench -------------------------------------------------------------------------------------

const mib = (bytes: number) => bytes / MIB;
/** process.resourceUsage().maxRSS is in KiB (1,024 bytes) on Linux. */
const peakBytes = (r: ChildReport) => r.maxRssKb * 1024;

export async function benchRoster(): Promise<Result> {
  const lookups = await measureLookups();
  const rss = await measureRss();
  const sync = await measureSync();
  const uncapped = await cappedSync(`server serves ${MAX_PAGE_SIZE} per page (baseline)`, []);
  const capped = await cappedSync(`server caps pages at ${SERVER_PAGE_CAP}`, [`page-cap=${SERVER_PAGE_CAP}`]);

  // 1
  const lat = (name: string, s: LatencySummary, keys: string, ok: Cell, amb: Cell, wrong: Cell): Cell[] => [name, keys, s.n, s.p50Ms, s.p90Ms, s.p99Ms, s.maxMs, s.meanMs, ratio(s.p99Ms, lookups.baseline.p99Ms), ok, amb, wrong];
  const lookupTable: Table = {
    title: `resolveCredential latency per call (ms), ${lookups.rosterSize} employees, ${lookups.enrolled} badges`,
    columns: ['code (input)', 'keys tried', 'n', 'p50', 'p90', 'p99', 'max', 'mean', 'p99 ÷ PK', 'as expected', 'ambiguous', 'wrong'],
    rows: [
      ...lookups.kinds.map((k) => lat(k.name, k.lat, k.keysTried, k.asExpected, k.ambiguous, k.wrong)),
      lat('SELECT … WHERE id = ? (baseline)', lookups.baseline, 'primary key', null, null, null),
    ],
  };
  const worst = lookups.kinds.reduce((w, k) => (k.lat.p99Ms > w.lat.p99Ms ? k : w));
  const wrongAnswers = lookups.kinds.reduce((s, k) => s + k.wrong, 0);

  // 2
  const e = rss.empty.report;
  const f = rss.full.report;
  const memRow = (name: string, r: ChildReport, wallMs: number): Cell[] => [name, peakBytes(r) / MIB, peakBytes(r) / MB, mib(r.memoryUsage.rss), mib(r.memoryUsage.heapTotal), mib(r.memoryUsage.heapUsed), mib(r.memoryUsage.external), mib(r.memoryUsage.arrayBuffers), wallMs / 1000];
  const rssTable: Table = {
    title: 'agent process memory (MiB = 2^20 bytes, MB = 10^6 bytes); peak = process.resourceUsage().maxRSS, the rest process.memoryUsage() at exit',
    columns: ['child', 'peak RSS MiB', 'peak RSS MB', 'RSS at exit MiB', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers', 'wall s'],
    rows: [
      memRow('empty roster, agent built only (baseline)', e, rss.empty.wallMs),
      memRow(`${EMPLOYEES} employees + ${EMPLOYEES} badges + ${RSS_PUNCHES} punches (production limit)`, f, rss.full.wallMs),
      memRow(`same, uploader delivering all ${RSS_PUNCHES} at ${AGENT_RATE.limit}/${AGENT_RATE.windowMs} ms`, rss.fast.report, rss.fast.wallMs),
      ['difference', (peakBytes(f) - peakBytes(e)) / MIB, (peakBytes(f) - peakBytes(e)) / MB, mib(f.memoryUsage.rss - e.memoryUsage.rss), mib(f.memoryUsage.heapTotal - e.memoryUsage.heapTotal), mib(f.memoryUsage.heapUsed - e.memoryUsage.heapUsed), mib(f.memoryUsage.external - e.memoryUsage.external), mib(f.memoryUsage.arrayBuffers - e.memoryUsage.arrayBuffers), null],
    ],
  };
  const phaseTable: Table = {
    title: 'full child, phase by phase (MiB)',
    columns: ['phase', 'ms', 'RSS after', 'peak so far', 'heapTotal after', 'heapUsed after'],
    rows: f.checkpoints.map((c) => [c.phase, Math.round(c.ms), mib(c.rssBytes), c.maxRssKbSoFar / 1024, mib(c.heapTotalBytes), mib(c.heapUsedBytes)]),
  };
  const peakPhase = f.checkpoints.find((c) => c.maxRssKbSoFar >= f.maxRssKb)?.phase ?? '—';
  const afterSync = f.checkpoints.find((c) => c.phase.startsWith('roster sync'));

  // 3
  const agentMed = median(sync.map((r) => r.agentMs));
  const baseMed = median(sync.map((r) => r.baselineMs));
  const syncTable: Table = {
    title: `full roster sync, ${SYNC_EMPLOYEES} employees in pages of ${MAX_PAGE_SIZE} (ms), ${SYNC_ROUNDS} rounds interleaved`,
    columns: ['', 'requests', 'employees', ...sync.map((_, i) => `round ${i + 1}`), 'median', 'employees/s', 'median ÷ baseline'],
    rows: [
      ['agent.syncRoster() (fresh agent each round)', sync[0]?.agentRequests ?? null, sync[0]?.agentEmployees ?? null, ...sync.map((r) => r.agentMs), agentMed, (SYNC_EMPLOYEES / agentMed) * 1000, ratio(agentMed, baseMed)],
      ['undici page loop + JSON only (baseline)', sync[0]?.baselineRequests ?? null, sync[0]?.baselineEmployees ?? null, ...sync.map((r) => r.baselineMs), baseMed, (SYNC_EMPLOYEES / baseMed) * 1000, 1],
    ],
  };

  // 4
  const minutesAtRealWindow = (c: CappedSync) => (c.ms / 1000) * (PRODUCTION_RATE.windowMs / SCALED_RATE.windowMs) / 60;
  const capRow = (c: CappedSync): Cell[] => [c.label, c.requests, c.employees, c.ms / 1000, minutesAtRealWindow(c), ratio(c.requests, uncapped.requests)];
  const capTable: Table = {
    title: `a site of ${SYNC_EMPLOYEES} employees synced within the account's limit (${SCALED_RATE.limit} per ${SCALED_RATE.windowMs} ms here, standing for ${PRODUCTION_RATE.limit} per minute)`,
    columns: ['server', 'requests', 'employees', 's here', 'min at 60/min', 'requests ÷ baseline'],
    rows: [capRow(uncapped), capRow(capped)],
  };

  const targets: Target[] = [
    { what: `worst lookup p99 (${worst.name}), ms`, value: worst.lat.p99Ms, target: `< ${TARGET_P99_MS}`, met: worst.lat.p99Ms < TARGET_P99_MS },
    { what: 'lookups answering someone else or nobody', value: wrongAnswers, target: '0', met: wrongAnswers === 0 },
    { what: `agent peak RSS with ${EMPLOYEES} employees + badges, punching at the production limit, MB (${(peakBytes(f) / MIB).toFixed(1)} MiB)`, value: peakBytes(f) / MB, target: `< ${TARGET_RSS_MB} MB (${((TARGET_RSS_MB * MB) / MIB).toFixed(2)} MiB)`, met: peakBytes(f) < TARGET_RSS_MB * MB },
    { what: `same with the uploader delivering ${RSS_PUNCHES} punches at ${AGENT_RATE.limit}/s (stress, not a site), MB (${(peakBytes(rss.fast.report) / MIB).toFixed(1)} MiB)`, value: peakBytes(rss.fast.report) / MB, target: `< ${TARGET_RSS_MB} MB`, met: peakBytes(rss.fast.report) < TARGET_RSS_MB * MB },
    { what: `full sync of ${SYNC_EMPLOYEES} employees, median s`, value: agentMed / 1000, target: 'reported (no target set)', met: null },
    { what: `requests of a ${SYNC_EMPLOYEES}-employee site sync, server page cap ${SERVER_PAGE_CAP}`, value: capped.requests, target: 'reported (no target set)', met: null },
  ];

  const sizeMib = lookups.dbBytes === null ? '—' : mib(lookups.dbBytes).toFixed(1);
  return {
    name: 'roster',
    title: `roster: lookups among ${EMPLOYEES} employees, agent memory with them, full sync of ${SYNC_EMPLOYEES}`,
    tables: [lookupTable, rssTable, phaseTable, syncTable, capTable],
    targets,
    notes: [
      `lookups: real SQLite file (WAL, synchronous=FULL, default page cache) of ${sizeMib} MiB; roster from generatedSeed → rosterRowOf → Roster.replace (${Math.round(lookups.setupMs.rosterReplace)} ms), ${lookups.enrolled} badges by Identities.enroll in one transaction (${Math.round(lookups.setupMs.enroll)} ms)`,
      `lookups: default identity rules of the config; each call timed alone (hrtime) after ${LOOKUP_WARMUP} unmeasured calls per kind, employees picked at random (seeded), all kinds and the baseline interleaved call by call`,
      `lookups: "unknown, valid CPF" is an 11-digit CPF with correct check digits that no employee has, so every key of the 'id' input is tried; "unknown badge" tries badge then external_id`,
      `lookups: ${lookups.cpfShared} employees of the seed share their (random) CPF with another; a masked-CPF lookup of one of them answers "ambiguous" (same work, counted apart)`,
      `memory: each child is a fresh \`node\` running dist/test/bench/rss-child.js; the mock (${EMPLOYEES} employees, ${MOCK_RULE.limit} per ${MOCK_RULE.windowMs} ms) runs in a third process, started in ${Math.round(rss.mockStartMs)} ms; the agent's own budget is ${AGENT_RATE.limit} per ${AGENT_RATE.windowMs} ms (the config's maximum limit), so neither limits anything`,
      `memory: full child synced ${f.rosterSize} employees in ${f.syncRequests ?? '—'} requests, enrolled ${f.enrolled ?? '—'} badges in one transaction on a second connection of its own (openBookkeepingConnection: no quick_check; page cache ${ENROLL_CACHE_KIB} KiB instead of better-sqlite3's 16 MB), closed after, punched ${f.punchesOk ?? '—'} (refused/repeat ${f.punchesRefused ?? '—'}) with the uploader running, ${f.sent ?? '—'} delivered by the end (flush bounded at ${CHILD_FLUSH_MAX_MS / 1000} s${f.flushDone === false ? ', NOT all delivered' : ''})`,
      `memory: the full child reached its peak during "${peakPhase}"; its peak up to the end of the roster sync alone was ${afterSync ? (afterSync.maxRssKbSoFar / 1024).toFixed(1) : '—'} MiB`,
      `memory: MB = 10^6 bytes, MiB = 2^20 = 1,048,576 bytes; the goal, ${TARGET_RSS_MB} MB, is ${((TARGET_RSS_MB * MB) / MIB).toFixed(2)} MiB; maxRSS is read in KiB and converted`,
      `sync: roster.pageSize = ${MAX_PAGE_SIZE} (default), no siteId (so no GET /sites request); the mock runs in its own process; time = syncRoster() call to its answer, agent built beforehand; baseline over one keep-alive undici Pool connection, no schema validation, no SQLite`,
      `page cap: the mock process serves at most ${SERVER_PAGE_CAP} per page (--variant page-cap); requests = the site record + pages + one page without the site filter; "min at 60/min" scales the measured time by the window (${PRODUCTION_RATE.windowMs / SCALED_RATE.windowMs}×): the limit, not the client, sets it`,
      `each child is bounded by ${CHILD_LIMIT_MS / 1000} s, each sync by ${SYNC_LIMIT_MS / 1000} s; temp dirs removed`,
    ],
    raw: {
      employees: EMPLOYEES,
      lookups: { n: LOOKUPS, warmup: LOOKUP_WARMUP, ...lookups },
      rss: { punches: RSS_PUNCHES, empty: rss.empty, full: rss.full, fast: rss.fast, mockStartMs: rss.mockStartMs, agentRate: AGENT_RATE, mockRule: MOCK_RULE },
      sync: { employees: SYNC_EMPLOYEES, rounds: sync, agentMedianMs: agentMed, baselineMedianMs: baseMed },
      pageCap: { cap: SERVER_PAGE_CAP, rule: SCALED_RATE, uncapped, capped },
    },
  };
}
