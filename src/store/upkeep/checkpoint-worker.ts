import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { DB_FILE_NAME } from '../database.js';
import type { AutoCheckpointHold } from './auto-checkpoint-hold.js';

/**
 * Copies the write-ahead log into the database file on request, off the event loop. A retention
 * pass writes the log fast; SQLite's own checkpoint then runs inside a commit on the event loop,
 * with its fsyncs (0.1-0.3 s seen on a year's first pass). `checkpoint` resolves when one is done;
 * awaited before the next batch, so the log is rewound and stays small.
 */
export type Checkpointer = { checkpoint(): Promise<void>; close(): Promise<void> };

/** CommonJS as text, like the integrity check's worker: the same text runs from dist/, under vitest and packaged. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
parentPort.on('message', (m) => {
  if (m === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true });
  } catch (e) {
    parentPort.postMessage({ error: String((e && e.message) || e) });
  }
});
`;

/**
 * `hold`: the agent's connections take no checkpoint inside their commits while this worker lives
 * and answers (store/upkeep/auto-checkpoint-hold.ts); given back when it is closed or fails.
 */
export function checkpointInWorker(dataDir: string, hold?: AutoCheckpointHold): Checkpointer {
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { sqlite, file: path.join(dataDir, DB_FILE_NAME) },
  });
  // Never what keeps a stopping process alive.
  worker.unref();
  const release = hold?.hold() ?? (() => {});
  let waiting: { resolve: () => void; reject: (e: Error) => void } | null = null;
  let broken: Error | null = null;
  const fail = (e: Error) => {
    broken ??= e;
    release();
    waiting?.reject(e);
    waiting = null;
  };
  worker.on('message', (m: { ok?: boolean; error?: string }) => {
    const w = waiting;
    waiting = null;
    // A checkpoint refused: its callers go back to SQLite's own, so the connections get theirs back.
    if (!m.ok) release();
    // Answered on the loop's next turn, not inside this message's callback: Node drains a port's
    // messages in one go, and a caller that works a step and asks again would be answered within
    // the same drain, round after round, with no timer or I/O of the agent's let in (206 ms seen
    // while archiving, each step under 25 ms).
    setImmediate(() => (m.ok ? w?.resolve() : w?.reject(new Error(m.error ?? 'no answer'))));
  });
  worker.on('error', fail);
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => (fail(new Error(`the checkpoint worker stopped (exit ${code})`)), resolve())),
  );
  return {
    checkpoint: () =>
      new Promise<void>((resolve, reject) => {
        if (broken) return reject(broken);
        waiting = { resolve, reject };
        worker.postMessage('check');
      }),
    close: async () => {
      worker.postMessage('close');
      const late = setTimeout(() => void worker.terminate(), 2_000);
      await exited;
      clearTimeout(late);
    },
  };
}
