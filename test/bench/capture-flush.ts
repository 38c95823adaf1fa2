/**
 * The capture bench's second half (issue 28 item 8): the same three interleaved series (agent.punch(), the bare
 * durable INSERT, the punch's transaction alone) in child processes whose disk flush is made slower with
 * slow-flush.c (LD_PRELOAD: fsync and fdatasync do their work, then wait). This VM's disk flushes in about 0.15 ms;
 * a terminal's eMMC or SD card takes milliseconds. The sweep shows the ratio at each flush cost and where it crosses
 * the target, so the figure on this disk is not read as the terminal's.
 *
 * Child: `node dist/test/bench/capture-flush.js '{"n":…}'` prints one JSON line (Measured) and exits 0.
 */
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureFresh, WARMUP, type Measured } from './capture.bench.js';
import { ratio, type Table } from './report.js';
import { tempDir } from './support.js';

/** Extra microseconds per flush: none (the shim's own cost), then a fast SSD's, then eMMC-like ones. */
export const FLUSH_DELAYS_US = [0, 500, 1_000, 2_000] as const;
/** Calls per series in each child: fewer than the in-process run (each call now waits a flush). */
const CHILD_CALLS = 400;
const CHILD_SCRIPT = fileURLToPath(new URL('./capture-flush.js', import.meta.url));
/** The shim's source: the bench is run from dist/, the C file stays in test/bench. */
const SHIM_SOURCE = path.resolve(path.dirname(CHILD_SCRIPT), '../../../test/bench/slow-flush.c');

type ChildArgs = { n: number };

function runChild(shim: string, delayUs: number): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, LD_PRELOAD: shim, TIMECLOCK_BENCH_FLUSH_DELAY_US: String(delayUs) };
    const c = spawn(process.execPath, [CHILD_SCRIPT, JSON.stringify({ n: CHILD_CALLS })], { env });
    let out = '';
    let err = '';
    c.stdout.on('data', (b: Buffer) => (out += b.toString()));
    c.stderr.on('data', (b: Buffer) => (err += b.toString()));
    c.on('error', reject);
    c.on('close', (code) => {
      if (code !== 0) return reject(new Error(`capture-flush child (${delayUs} µs) exited ${code}: ${err.trim()}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as Measured);
      } catch (e) {
        reject(new Error(`capture-flush child (${delayUs} µs) printed no report: ${(e as Error).message}`));
      }
    });
  });
}

/** Compiles the shim into `dir`; why not, when this machine has no C compiler (or the compile fails). */
function buildShim(dir: string): { so: string } | { why: string } {
  const so = path.join(dir, 'slow-flush.so');
  try {
    execFileSync('cc', ['-shared', '-fPIC', '-O2', '-o', so, SHIM_SOURCE, '-ldl'], { stdio: 'pipe' });
    return { so };
  } catch (e) {
    return { why: `the slow-flush shim did not compile (cc): ${(e as Error).message.split('\n')[0]}` };
  }
}

export type FlushSweep = { table: Table; rows: Array<{ delayUs: number } & Measured> } | { skipped: string };

/** The three series at each flush delay, one child each. */
export async function flushSweep(target: number): Promise<FlushSweep> {
  const dir = tempDir('timeclock-bench-shim-');
  try {
    const shim = buildShim(dir.dir);
    if ('why' in shim) return { skipped: shim.why };
    const rows: Array<{ delayUs: number } & Measured> = [];
    for (const delayUs of FLUSH_DELAYS_US) rows.push({ delayUs, ...(await runChild(shim.so, delayUs)) });
    const table: Table = {
      title: `with a slower flush (LD_PRELOAD slow-flush.so; N=${CHILD_CALLS} each, ${WARMUP} warm-up, p50 in ms)`,
      columns: [
        'flush delay added',
        'bare',
        'transaction',
        'agent.punch()',
        'agent/bare',
        'transaction/bare',
        'p99 ratio',
      ],
      rows: rows.map((r) => {
        const p50 = ratio(r.agent.p50Ms, r.bare.p50Ms);
        return [
          `${(r.delayUs / 1000).toFixed(1)} ms`,
          r.bare.p50Ms,
          r.transaction.p50Ms,
          r.agent.p50Ms,
          p50 === null ? null : `${p50.toFixed(2)}${p50 <= target ? ' (met)' : ''}`,
          ratio(r.transaction.p50Ms, r.bare.p50Ms),
          ratio(r.agent.p99Ms, r.bare.p99Ms),
        ];
      }),
    };
    return { table, rows };
  } finally {
    dir.cleanup();
  }
}

if (process.argv[1] === CHILD_SCRIPT) {
  measureFresh((JSON.parse(process.argv[2] ?? '{}') as ChildArgs).n).then(
    (m) => {
      process.stdout.write(`${JSON.stringify(m)}\n`);
      process.exit(0);
    },
    (e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
      process.exit(1);
    },
  );
}
