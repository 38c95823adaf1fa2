/** A fresh agent database (every migration applied) in a temporary directory of its own, for a store's unit test. */
import { openDatabase, type DurableDb } from '../../src/store/database.js';
import { tempDir } from './temp.js';

export type TempDatabase = { db: DurableDb; close: () => void };

/** `close` closes the database and removes its directory. */
export function tempDatabase(prefix: string): TempDatabase {
  const dir = tempDir(prefix);
  try {
    const db = openDatabase(dir.dir);
    return {
      db,
      close: () => {
        db.close();
        dir.cleanup();
      },
    };
  } catch (e) {
    dir.cleanup();
    throw e;
  }
}
