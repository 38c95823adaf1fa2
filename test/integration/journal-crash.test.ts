import path from 'node:path';
import readline from 'node:readline';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { mulberry32 } from '../../src/mock/faults.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { DB_FILE_NAME } from '../../src/store/database.js';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import { spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

/**
 * kill -9 while an agent process captures: after every restart the evidence journal still
 * verifies, each acknowledged punch kept the NSR it was answered with, no NSR was given twice, and
 * a kill is never taken for a restore.
 */
const RUNS = 6;
const PUNCHES_PER_RUN = 30;

let mock: MockServer;
let dir: { dir: string; cleanup: () => void };
const random = mulberry32(20260302);

beforeAll(async () => {
  mock = await startMockServer({
    seed: generatedSeed({ employees: RUNS * PUNCHES_PER_RUN + 10, sites: 1 }),
    rateLimit: { limit: 60, windowMs: 1_000 },
  });
  dir = tempDir('timeclock-journal-crash-');
});

afterAll(async () => {
  await mock?.close();
  dir?.cleanup();
});

const env = (): Record<string, string> => ({
  TIMECLOCK_API_URL: mock.url,
  TIMECLOCK_API_TOKEN: 'demo-token',
  TIMECLOCK_DATA_DIR: dir.dir,
  TIMECLOCK_API_TIMEOUT_MS: '500',
  TIMECLOCK_LOG_LEVEL: 'error',
});

type Ack = { employee_external_id: string; nsr: number };

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
  const killAtAck = 1 + Math.floor(random() * (PUNCHES_PER_RUN - 2));
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const r = JSON.parse(line) as Ack & { ok: boolean };
    if (r.ok) acks.push({ employee_external_id: r.employee_external_id, nsr: r.nsr });
    if (acks.length === killAtAck) setTimeout(() => child.kill('SIGKILL'), Math.floor(random() * 8));
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  child.stdin.on('error', () => {});
  await ready;
  for (let i = 0; i < PUNCHES_PER_RUN && child.exitCode === null && child.signalCode === null; i++) {
    child.stdin.write(`${100000 + run * PUNCHES_PER_RUN + i}\n`);
    await new Promise((r) => setTimeout(r, 3 + Math.floor(random() * 10)));
  }
  const stray = setTimeout(() => child.kill('SIGKILL'), 2_000);
  await exited;
  clearTimeout(stray);
  return acks;
}

describe('the evidence journal across kill -9', () => {
  it(`keeps every acknowledged NSR, gives none twice, and verifies after ${RUNS} kills`, async () => {
    const acked: Ack[] = [];
    for (let run = 0; run < RUNS; run++) acked.push(...(await lifeUntilKilled(run)));
    expect(acked.length).toBeGreaterThan(RUNS);

    const db = new Database(path.join(dir.dir, DB_FILE_NAME));
    try {
      const nsrOf = db.prepare('SELECT p.nsr FROM punches p WHERE p.employee_external_id = ?');
      expect(
        acked.filter((a) => (nsrOf.get(a.employee_external_id) as { nsr: number } | undefined)?.nsr !== a.nsr),
      ).toEqual([]);
      expect(new Set(acked.map((a) => a.nsr)).size).toBe(acked.length);
      expect(db.prepare(`SELECT COUNT(*) AS n FROM journal_facts WHERE event = 'restored'`).get()).toEqual({ n: 0 });
      const marks = db.prepare('SELECT COUNT(*) AS n, MAX(nsr) AS last FROM journal_marks').get() as {
        n: number;
        last: number;
      };
      expect(marks.last).toBe(marks.n); // 1..n, no gap
      expect(await verifyJournal(db)).toMatchObject({ ok: true, marks: marks.n, firstProblem: null });
    } finally {
      db.close();
    }
  });
});
