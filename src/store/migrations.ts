/**
 * Numbered schema migrations. Each entry moves the database from version i to i+1 and runs in its
 * own transaction; `PRAGMA user_version` records where a file stands. Never edit a shipped entry:
 * terminals in the field have already run it. Add a new one.
 *
 * The entries themselves are in src/store/migrations/, one file per range of versions, in order.
 * The files are history too: new migrations go in a new file, added at the end of this list.
 */
import { migrationsV1toV5 } from './migrations/v01-v05.js';
import { migrationsV6toV11 } from './migrations/v06-v11.js';
import { migrationsV12 } from './migrations/v12.js';
import { migrationsV13 } from './migrations/v13.js';

export const migrations: readonly string[] = [
  ...migrationsV1toV5,
  ...migrationsV6toV11,
  ...migrationsV12,
  ...migrationsV13,
];
