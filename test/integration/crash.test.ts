import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { mulberry32 } from '../../src/mock/faults.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { recordCounts } from '../helpers/agent.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

/**
 * kill -9 at random moments while an agent process captures and sends a stream of punches.
 * After each kill the terminal is started again on the same data directory; at the end every
 * punch the agent acknowledged is on the server exactly once, and nothing is there twice.
 */
const RUNS = 20;
const PUNCHES_PER_RUN = 40;

let mock: MockServer;
let dir: { dir: string; cleanup: () => void };
const random = mulberry32(20261121);

beforeAll(async () => {
  mock = await startMockServer({
    seed: generatedSeed({ employees: RUNS * PUNCHES_PER_RUN + 10, sites: 1 }),
    rateLimit: { limit: 60, windowMs: 1_000 },
    // Some answers are lost after the record was stored: the restarted agent must reconcile, not resend.
    faults: { dropAfterStore: 0.1, only: { method: 'POST', pathPrefix: '/times' } },
  });
  dir = tempDir('timeclock-crash-');
});

afterAll(async () => {
  await mock?.close();
  dir?.cleanup();
});

function env(): Record<string, string> {
  return {
    TIMECLOCK_API_URL: mock.url,
    TIMECLOCK_API_TOKEN: 'demo-token',
    TIMECLOCK_DATA_DIR: dir.dir,
    TIMECLOCK_RATE_LIMIT: '60',
    TIMECLOCK_RATE_WINDOW_MS: '1000',
    TIMECLOCK_API_TIMEOUT_MS: '500',
    TIMECLOCK_RETRY_BASE_MS: '20',
    TIMECLOCK_RETRY_MAX_MS: '200',
    TIMECLOCK_LOG_LEVEL: 'error',
  };
}

type Ack = { employee_external_id: string; local_date: string; local_time: string };

/** One life of the agent: start, stream punches, SIGKILL after a random delay. */
async function lifeUntilKilled(run: number): Promise<Ack[]> {
  const child = spawnCli(['start', '--headless', '--json'], env());
  const acks: Ack[] = [];
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`agent not ready in 20 s: ${stderr}`)), 20_000);
    child.stderr.on('data', () => {
      if (/ready:/.test(stderr)) {
        clearTimeout(t);
        resolve();
      }
    });
  });
  // Kill after a random number of acknowledgements plus a few random milliseconds: always while
  // punches are flowing, at a random point of commit, send or bookkeeping.
  const killAtAck = 1 + Math.floor(random() * (PUNCHES_PER_RUN - 2));
  const extraDelay = Math.floor(random() * 12);
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const r = JSON.parse(line) as Ack & { ok: boolean };
    if (r.ok)
      acks.push({ employee_external_id: r.employee_external_id, local_date: r.local_date, local_time: r.local_time });
    if (acks.length === killAtAck) setTimeout(() => child.kill('SIGKILL'), extraDelay);
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  child.stdin.on('error', () => {}); // EPIPE once the kill lands: expected
  await ready;

  for (let i = 0; i < PUNCHES_PER_RUN && child.exitCode === null && child.signalCode === null; i++) {
    child.stdin.write(`${100000 + run * PUNCHES_PER_RUN + i}\n`);
    await new Promise((r) => setTimeout(r, 5 + Math.floor(random() * 20)));
  }
  const stray = setTimeout(() => child.kill('SIGKILL'), 2_000); // never wait on a run whose kill missed
  await exited;
  clearTimeout(stray);
  return acks;
}

describe('crash safety', () => {
  it(`every punch acknowledged before ${RUNS} random SIGKILLs is delivered exactly once after restart`, async () => {
    const acknowledged: Ack[] = [];
    let killedMidStream = 0;
    for (let run = 0; run < RUNS; run++) {
      const acks = await lifeUntilKilled(run);
      if (acks.length < PUNCHES_PER_RUN) killedMidStream++;
      acknowledged.push(...acks);
    }
    // The kills really landed while punches were flowing, not after the stream was done.
    expect(killedMidStream).toBeGreaterThanOrEqual(RUNS - 2);
    expect(acknowledged.length).toBeGreaterThan(100);

    mock.setFaults(null);
    const flush = await runCli(['flush', '--max-wait-ms', '60000'], env(), '', 90_000);
    expect(flush.stderr).not.toMatch(/Error/);
    expect(flush.code).toBe(0);

    const counts = recordCounts(mock.records());
    const missing = acknowledged.filter(
      (a) => counts.get(`${a.employee_external_id}|${a.local_date}T${a.local_time}`) !== 1,
    );
    expect(missing).toEqual([]);
    const duplicated = [...counts.entries()].filter(([, n]) => n > 1);
    expect(duplicated).toEqual([]);
    // Drops really happened, so reconciliation was exercised.
    expect(mock.requests().some((r) => r.fault === 'drop_after_store')).toBe(true);
  });
});
