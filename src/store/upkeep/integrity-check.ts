import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { DB_FILE_NAME, INTEGRITY_PROBLEMS_KEPT } from '../database.js';

/** What a check found: `problems` empty when the file is sound. */
export type IntegrityFinding = { problems: string[] };

/** A check under way: `cancel` ends it (the terminal is stopping); `result` then rejects. */
export type IntegrityRun = { result: Promise<IntegrityFinding>; cancel(): void };

/** Checks the database of a data directory; the agent's default is `checkIntegrityInWorker`. */
export type IntegrityChecker = (dataDir: string) => IntegrityRun;

/**
 * The worker's program, CommonJS given as text (`eval`): the same text runs from dist/, from the
 * TypeScript sources under vitest and from the packaged app.asar, with no worker file to find.
 * Its own read-only connection: the check reads a snapshot and never waits for, nor blocks, the
 * agent's writes (WAL). SQLite errors that say the file is damaged are findings, not failures.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
let db = null;
try {
  db = new Database(workerData.file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -2000');
  const found = db.pragma('quick_check(' + workerData.max + ')').map((r) => r.quick_check);
  parentPort.postMessage({ problems: found.length === 1 && found[0] === 'ok' ? [] : found });
} catch (e) {
  const code = String((e && e.code) || '');
  const damaged = code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB';
  parentPort.postMessage(damaged ? { problems: [String(e.message)] } : { error: String((e && e.message) || e) });
} finally {
  if (db) db.close();
}
`;

/**
 * SQLite's quick_check reads the whole file and blocks its thread throughout: 0.36 s warm and
 * 3.5 s cold on a year of a 500-employee site (84 MiB). In a worker thread the agent's event loop,
 * and so capture, never waits for it.
 */
export const checkIntegrityInWorker: IntegrityChecker = (dataDir) => {
  let worker: Worker | null = null;
  const result = new Promise<IntegrityFinding>((resolve, reject) => {
    const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { sqlite, file: path.join(dataDir, DB_FILE_NAME), max: INTEGRITY_PROBLEMS_KEPT },
    });
    // Never what keeps a stopping process alive.
    worker.unref();
    worker.once('message', (m: { problems?: string[]; error?: string }) =>
      m.problems ? resolve({ problems: m.problems }) : reject(new Error(m.error ?? 'no answer')),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the check stopped (exit ${code})`)));
  });
  return {
    result,
    cancel: () => {
      // Not awaited: a worker inside quick_check ends only when SQLite returns.
      void (worker as Worker | null)?.terminate();
    },
  };
};
