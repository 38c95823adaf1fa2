/**
 * A terminal and a mock service for the journal-against-service comparison (issue 15): one clock
 * for both that a test moves by days (wall and monotonic together: time passing, not a step), the
 * demo roster, punches delivered for real.
 */
import type { Agent } from '../../src/agent/facade/agent.js';
import type { PunchAnswer } from '../../src/agent/receipts/receipts.js';
import { startMockServer, type MockServer, type ServerVariants } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { testAgent } from './agent.js';
import { tempDir } from './temp.js';

export type Punched = Extract<PunchAnswer, { ok: true }> & { nsr: number; who: string };

export type AuditRig = {
  mock: MockServer;
  agent: Agent;
  dir: string;
  clock: { now(): number };
  /** Time passes by `ms` for the terminal and the service alike. */
  pass(ms: number): void;
  punch(who: string): Promise<Punched>;
  /** A new agent on the same data directory (the old one stopped first). */
  reopen(): Promise<Agent>;
  /** GET /times requests the mock has seen. */
  timesReads(): number;
};

export type RigOptions = {
  variants?: ServerVariants;
  rate?: { limit: number; windowMs: number };
  settings?: Record<string, unknown>;
};

export async function auditRig(cleanups: Array<() => Promise<void> | void>, o: RigOptions = {}): Promise<AuditRig> {
  // The next 15:00 UTC (noon in São Paulo, 11:00 in Manaus): every employee's punch falls on the
  // same local day whatever the hour the tests run at (at 03:00 UTC São Paulo is past midnight
  // while Manaus is not). Ahead of now, so never before the build's date.
  const DAY = 86_400_000;
  const realNow = Date.now();
  const fifteen = Math.floor(realNow / DAY) * DAY + 15 * 3_600_000;
  let offset = (fifteen > realNow ? fifteen : fifteen + DAY) - realNow;
  const clock = { now: () => Date.now() + offset };
  const rate = o.rate ?? { limit: 60, windowMs: 1_000 };
  const mock = await startMockServer({
    seed: demoSeed(),
    rateLimit: rate,
    clock,
    ...(o.variants ? { variants: o.variants } : {}),
  });
  cleanups.push(() => mock.close());
  const t = tempDir('timeclock-audit-');
  cleanups.push(t.cleanup);
  const make = (): Agent =>
    testAgent({ dataDir: t.dir, mock, clock, rateLimit: rate, ...(o.settings ? { settings: o.settings } : {}) });
  let agent = make();
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  const rig: AuditRig = {
    mock,
    get agent() {
      return agent;
    },
    dir: t.dir,
    clock,
    pass: (ms) => {
      offset += ms;
    },
    async punch(who) {
      const r = await agent.punch({ kind: 'id', value: who });
      if (!r.ok || r.nsr === null || r.punchId === null)
        throw new Error(`punch of ${who} not registered: ${JSON.stringify(r)}`);
      return { ...r, nsr: r.nsr, who };
    },
    async reopen() {
      await agent.stop();
      agent = make();
      await agent.start({ roster: false });
      return agent;
    },
    timesReads: () => mock.requests().filter((q) => q.method === 'GET' && q.path.endsWith('/times')).length,
  };
  return rig;
}

/** Punches for the given employees now, then flushed to the service. */
export async function punchAndDeliver(rig: AuditRig, who: readonly string[]): Promise<Punched[]> {
  const out: Punched[] = [];
  for (const w of who) out.push(await rig.punch(w));
  const f = await rig.agent.flush({ maxWaitMs: 20_000 });
  if (!f.done) throw new Error(`not delivered: ${f.blockedBy}`);
  return out;
}

export const minuteOf = (p: Pick<Punched, 'localDate' | 'localTime'>): string => `${p.localDate}T${p.localTime}`;
export const daysOf = (ps: readonly Punched[]): string[] => [...new Set(ps.map((p) => p.localDate))].sort();
/** Distinct (employee, local day) pairs. */
export const employeeDays = (ps: readonly Punched[]): number => new Set(ps.map((p) => `${p.who}|${p.localDate}`)).size;
