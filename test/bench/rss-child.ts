/**
 * The agent process of the roster bench's memory measurement, run by roster-memory.ts (part of roster.bench.ts) as a
 * child
 * (`node dist/test/bench/rss-child.js '<json args>'`) so that its peak RSS is the agent's alone:
 * no bench bookkeeping, no mock (the mock runs in a process of its own), nothing left over from
 * earlier benches.
 *
 * mode 'full':  build a real agent → full roster sync from the mock (page size 100) → enroll one
 *               badge per employee (one transaction) → start delivery → `punches` badge punches,
 *               each a distinct employee → flush (bounded).
 * mode 'empty': build a real agent with an empty roster, nothing else (the baseline).
 *
 * Prints one JSON line (ChildReport) on stdout and exits 0; any failure goes to stderr, exit 1.
 */
import { fileURLToPath } from 'node:url';
import type { Agent } from '../../src/agent/facade/agent.js';
import { objectIdFor } from '../../src/mock/seed.js';
import { openBookkeepingConnection } from '../../src/store/database.js';
import { Identities } from '../../src/store/roster/identities.js';
import { badgeCode, benchAgent, distinctSample, seededRandom, yieldToLoop } from './support.js';

/** Page cache of the bench's own enrollment connection, KiB. */
export const ENROLL_CACHE_KIB = 1024;

export type ChildArgs = {
  mode: 'full' | 'empty';
  dataDir: string;
  baseUrl: string;
  /** Employees the mock serves (and badges to enroll). */
  employees: number;
  punches: number;
  rateLimit: { limit: number; windowMs: number };
  /**
   * When set, the punches run on an agent rebuilt with this limit (the production one): the
   * roster is loaded fast, but the terminal then runs as it would at a site. The flush is skipped
   * (at 60 per minute it would take hours).
   */
  punchRateLimit?: { limit: number; windowMs: number };
  flushMaxMs: number;
};

export type Checkpoint = {
  phase: string;
  ms: number;
  rssBytes: number;
  heapTotalBytes: number;
  heapUsedBytes: number;
  /** process.resourceUsage().maxRSS at the end of the phase (KB): the peak so far. */
  maxRssKbSoFar: number;
};

export type ChildReport = {
  mode: ChildArgs['mode'];
  /** process.resourceUsage().maxRSS, kilobytes (Linux: KiB). */
  maxRssKb: number;
  memoryUsage: NodeJS.MemoryUsage;
  checkpoints: Checkpoint[];
  rosterSize: number;
  syncRequests: number | null;
  enrolled: number | null;
  punchesOk: number | null;
  punchesRefused: number | null;
  sent: number | null;
  flushDone: boolean | null;
};

async function run(args: ChildArgs): Promise<ChildReport> {
  const checkpoints: Checkpoint[] = [];
  let t = performance.now();
  const mark = (phase: string) => {
    const now = performance.now();
    const m = process.memoryUsage();
    checkpoints.push({
      phase,
      ms: now - t,
      rssBytes: m.rss,
      heapTotalBytes: m.heapTotal,
      heapUsedBytes: m.heapUsed,
      maxRssKbSoFar: process.resourceUsage().maxRSS,
    });
    t = now;
  };
  mark('node started, modules loaded');

  let agent: Agent | null = null;
  try {
    agent = benchAgent({ dataDir: args.dataDir, baseUrl: args.baseUrl, rateLimit: args.rateLimit });
    mark('agent built (empty roster)');
    const report: Omit<ChildReport, 'maxRssKb' | 'memoryUsage' | 'checkpoints' | 'rosterSize'> = {
      mode: args.mode,
      syncRequests: null,
      enrolled: null,
      punchesOk: null,
      punchesRefused: null,
      sent: null,
      flushDone: null,
    };

    if (args.mode === 'full') {
      const synced = await agent.syncRoster();
      if (!synced.ok) throw new Error(`roster sync failed: ${synced.error}`);
      if (synced.employees !== args.employees)
        throw new Error(`roster sync brought ${synced.employees} employees, expected ${args.employees}`);
      report.syncRequests = synced.requests;
      mark(`roster sync (${synced.employees} employees, ${synced.requests} requests)`);

      // One badge per employee. Enrolled on a second connection to the same file, in one
      // transaction (one by one, each enrollment is a durable commit: minutes for 100,000); the
      // connection is closed afterwards. The agent reads them through its own connection. The
      // bench's connection skips openDatabase's quick_check (it reads the whole file through the
      // page cache) and gets a 1 MiB page cache (better-sqlite3's default is 16 MB), so that it
      // adds as little as possible to the agent's peak.
      const db = openBookkeepingConnection(args.dataDir);
      try {
        db.pragma(`cache_size = -${ENROLL_CACHE_KIB}`);
        const identities = new Identities(db);
        const at = Date.now();
        db.transaction(() => {
          for (let i = 0; i < args.employees; i++)
            identities.enroll(badgeCode(i), objectIdFor('gen-employee', i), at, 'bench');
        })();
        report.enrolled = identities.enrollmentCount();
      } finally {
        db.close();
      }
      mark(`${report.enrolled} badges enrolled (2nd connection, 1 transaction)`);

      if (args.punchRateLimit) {
        await agent.stop();
        agent = benchAgent({ dataDir: args.dataDir, baseUrl: args.baseUrl, rateLimit: args.punchRateLimit });
        mark(`agent rebuilt at ${args.punchRateLimit.limit} per ${args.punchRateLimit.windowMs} ms`);
      }
      await agent.start({ roster: false });
      let ok = 0;
      let refused = 0;
      for (const i of distinctSample(args.employees, args.punches, seededRandom(0xbadc0de))) {
        const r = await agent.punch({ kind: 'badge', value: badgeCode(i) });
        if (r.ok && !r.repeat) ok++;
        else refused++;
        // As at a kiosk: the uploader (started above) runs between punches.
        await yieldToLoop();
      }
      report.punchesOk = ok;
      report.punchesRefused = refused;
      mark(
        `${args.punches} badge punches (uploader running at ${args.punchRateLimit ? 'the production limit' : 'the sync limit'})`,
      );

      if (!args.punchRateLimit) {
        const flushed = await agent.flush({ maxWaitMs: args.flushMaxMs });
        report.flushDone = flushed.done;
        mark(`flush (${agent.status().queue.sent} delivered${flushed.done ? '' : `, stopped: ${flushed.blockedBy}`})`);
      }
      report.sent = agent.status().queue.sent;
    }

    const rosterSize = agent.status().roster.size;
    await agent.stop();
    agent = null;
    mark('agent stopped');
    return {
      ...report,
      rosterSize,
      maxRssKb: process.resourceUsage().maxRSS,
      memoryUsage: process.memoryUsage(),
      checkpoints,
    };
  } finally {
    await agent?.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const args = JSON.parse(process.argv[2] ?? '') as ChildArgs;
    const report = await run(args);
    process.stdout.write(JSON.stringify(report) + '\n', () => process.exit(0));
  } catch (e) {
    process.stderr.write(`rss-child failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  }
}
