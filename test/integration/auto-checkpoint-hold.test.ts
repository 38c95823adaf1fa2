/**
 * While the agent's checkpoint worker lives, no commit on its connections checkpoints the write-ahead
 * log on the event loop (store/upkeep/auto-checkpoint-hold.ts): a punch committed during a roster
 * sync took the sync's checkpoint, fsyncs included (40-93 ms of the loop in roster-stalls).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_FILE_NAME, openBookkeepingConnection, openDatabase } from '../../src/store/database.js';
import { AutoCheckpointHold } from '../../src/store/upkeep/auto-checkpoint-hold.js';
import { checkpointInWorker } from '../../src/store/upkeep/checkpoint-worker.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function connections() {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const db = openDatabase(t.dir);
  cleanups.push(() => void db.close());
  const bookkeeping = openBookkeepingConnection(t.dir);
  cleanups.push(() => void bookkeeping.close());
  const auto = () => [db, bookkeeping].map((c) => c.pragma('wal_autocheckpoint', { simple: true }) as number);
  return { dir: t.dir, db, bookkeeping, auto, hold: new AutoCheckpointHold([db, bookkeeping]) };
}

describe("the checkpoint worker's hold on the connections' own checkpoints", () => {
  it('keeps every commit from checkpointing while a worker lives, and gives the setting back after the last', async () => {
    const { dir, db, bookkeeping, auto, hold } = connections();
    db.pragma('wal_autocheckpoint = 500');
    db.exec('CREATE TABLE filler (text TEXT)');
    db.pragma('wal_checkpoint(TRUNCATE)');
    const file = path.join(dir, DB_FILE_NAME);
    const before = fs.statSync(file).size;

    const staging = checkpointInWorker(dir, hold);
    const freeing = checkpointInWorker(dir, hold);
    expect(auto()).toEqual([0, 0]);
    // The log well past both connections' own thresholds (about 1,500 pages), written on one…
    const fill = bookkeeping.prepare('INSERT INTO filler VALUES (?)');
    bookkeeping.transaction(() => {
      for (let i = 0; i < 3_000; i++) fill.run('x'.repeat(2_000));
    })();
    // …then a small commit on the other, as a punch: nothing copied into the file.
    db.prepare('INSERT INTO filler VALUES (?)').run('a punch');
    expect(fs.statSync(file).size).toBe(before);

    await staging.close();
    expect(auto()).toEqual([0, 0]);
    await freeing.close();
    expect(auto()).toEqual([500, 1_000]);
    // Its own checkpoint again: the next commit copies the log into the file.
    db.prepare('INSERT INTO filler VALUES (?)').run('the next punch');
    expect(fs.statSync(file).size).toBeGreaterThan(before + 3_000 * 2_000);
  });

  it('gives the setting back when the worker cannot checkpoint', async () => {
    const { dir, auto, hold } = connections();
    const broken = checkpointInWorker(path.join(dir, 'not-a-data-dir'), hold);
    cleanups.push(() => broken.close());
    expect(hold.held).toBe(true);
    await expect(broken.checkpoint()).rejects.toThrow();
    expect(hold.held).toBe(false);
    expect(auto()).toEqual([1_000, 1_000]);
  });
});
