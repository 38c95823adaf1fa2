/**
 * The retention pass's and the roster swap's checkpoints in a worker (store/upkeep/checkpoint-worker.ts)
 * must leave the event loop to the agent between two steps: a punch's HTTP answer, the reader, the
 * screen's timers. Node drains a message port in one go, so a caller answered inside that drain,
 * working a step and asking again, could go round after round with no timer let in (a 206 ms stall
 * while archiving, each step under 25 ms).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database.js';
import { checkpointInWorker } from '../../src/store/upkeep/checkpoint-worker.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** A step of a pass: a write on the loop's thread that takes at least `ms`. */
function busyStep(run: () => void, ms: number): void {
  const until = performance.now() + ms;
  run();
  while (performance.now() < until);
}

describe('the checkpoint worker', () => {
  it("lets the loop's timers run between every two steps of a pass", async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const db = openDatabase(t.dir);
    cleanups.push(() => void db.close());
    db.exec('CREATE TABLE filler (n INTEGER, text TEXT)');
    const insert = db.prepare('INSERT INTO filler VALUES (?, ?)');
    const page = db.prepare('SELECT n, text FROM filler WHERE n >= ? ORDER BY n LIMIT 20');
    const ckpt = checkpointInWorker(t.dir);
    cleanups.push(() => ckpt.close());
    await ckpt.checkpoint();

    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    cleanups.push(() => clearInterval(timer));
    const starved: number[] = [];
    for (let round = 0; round < 150; round++) {
      const before = ticks;
      // Mostly reads, as archiving's pages are: the worker then has nothing to copy and answers at once.
      busyStep(() => (round % 10 === 0 ? insert.run(round, 'x'.repeat(2_000)) : page.all(round - 20)), 2);
      await ckpt.checkpoint();
      // A timer due (2 ms of work passed) runs before the next step, whatever the worker's speed.
      if (round > 0 && ticks === before) starved.push(round);
    }
    expect(starved).toEqual([]);
    expect(db.pragma('wal_checkpoint(PASSIVE)')).toEqual([
      { busy: 0, log: expect.any(Number), checkpointed: expect.any(Number) },
    ]);
  });
});
