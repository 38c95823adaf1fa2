/**
 * Runs every bench in sequence, prints a compact report, and writes the raw numbers to
 * test-artifacts/bench.json. `npm run bench` builds first and then runs dist/test/bench/run-all.js.
 *
 * To add a bench: write `test/bench/<name>.bench.ts` exporting an async function returning a
 * `Result` (see report.ts), and add it to `benches` below. Benches print; they never assert a
 * timing. Only a bench that crashes makes the exit code non-zero.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCapture } from './capture.bench.js';
import { benchDrain } from './drain.bench.js';
import { benchReconcile } from './reconcile.bench.js';
import { benchRoster } from './roster.bench.js';
import { benchRosterTraffic } from './roster-traffic.bench.js';
import { benchScreen } from './screen.bench.js';
import { benchStatus } from './status.bench.js';
import { benchStorage } from './storage.bench.js';
import { renderResult, type Result } from './report.js';
import { tempFsInfo } from './support.js';

export type Bench = { name: string; run: () => Promise<Result> };

export const benches: Bench[] = [
  { name: 'capture', run: benchCapture },
  { name: 'drain', run: benchDrain },
  { name: 'roster', run: benchRoster },
  { name: 'roster-traffic', run: benchRosterTraffic },
  { name: 'roster-stalls', run: async () => (await import('./roster-stalls.bench.js')).benchRosterStalls() },
  { name: 'reconcile', run: benchReconcile },
  { name: 'screen', run: benchScreen },
  { name: 'screen-photo', run: async () => (await import('./screen-photo.bench.js')).benchScreenPhoto() },
  { name: 'status', run: benchStatus },
  { name: 'storage', run: benchStorage },
  { name: 'journal', run: async () => (await import('./journal.bench.js')).benchJournal() },
  { name: 'journal-archive', run: async () => (await import('./journal-archive.bench.js')).benchJournalArchive() },
  { name: 'fleet', run: async () => (await import('./fleet.bench.js')).benchFleet() },
  { name: 'self-service', run: async () => (await import('./self-service.bench.js')).benchSelfService() },
  { name: 'runtime', run: async () => (await import('./runtime.bench.js')).benchRuntime() },
  { name: 'presence', run: async () => (await import('./presence.bench.js')).benchPresence() },
];

/**
 * The whole run is bounded (the fleet bench alone takes about 12 minutes); a bench that hangs past this is a bug to
 * report, not to wait for.
 */
const RUN_LIMIT_MS = 1_800_000;

function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

async function main(): Promise<void> {
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench run exceeded ${RUN_LIMIT_MS / 1000} s; giving up\n`);
    process.exit(2);
  }, RUN_LIMIT_MS);
  watchdog.unref();

  const only = process.argv.slice(2);
  const selected = only.length > 0 ? benches.filter((b) => only.includes(b.name)) : benches;
  const env = {
    node: process.version,
    platform: `${process.platform} ${os.release()} ${process.arch}`,
    cpus: os.cpus().length,
    ...tempFsInfo(),
  };
  console.log(
    `timeclock-kiosk benches — ${new Date().toISOString()} — node ${env.node}, ${env.platform}, ${env.cpus} CPUs, temp on ${env.fsType}`,
  );

  const out: Record<string, unknown> = {};
  let failed = 0;
  for (const b of selected) {
    const t0 = performance.now();
    console.log(`\n… running ${b.name}`);
    try {
      const r = await b.run();
      const seconds = (performance.now() - t0) / 1000;
      console.log(`\n${renderResult(r)}\n(${b.name}: ${seconds.toFixed(1)} s)`);
      out[b.name] = { seconds, title: r.title, targets: r.targets, tables: r.tables, notes: r.notes, raw: r.raw };
    } catch (e) {
      failed++;
      const message = e instanceof Error ? (e.stack ?? e.message) : String(e);
      console.error(`\n== ${b.name}: FAILED ==\n${message}`);
      out[b.name] = { error: message };
    }
  }

  const dir = path.join(projectRoot(), 'test-artifacts');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'bench.json');
  fs.writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), env, benches: out }, null, 2) + '\n');
  console.log(`\nraw numbers: ${path.relative(process.cwd(), file) || file}`);
  if (failed > 0) process.exitCode = 1;
}

await main();
