/**
 * Numbered schema migrations. Each entry moves the database from version i to i+1 and runs in its
 * own transaction; `PRAGMA user_version` records where a file stands. Never edit a shipped entry:
 * terminals in the field have already run it. Add a new one.
 *
 * The entries themselves are in src/store/migrations/, one file per version (vNN.ts, NN the version
 * it moves to). The files are history too: a new migration is a new file, added at the end of this list.
 */
import { migration01 } from './migrations/v01.js';
import { migration02 } from './migrations/v02.js';
import { migration03 } from './migrations/v03.js';
import { migration04 } from './migrations/v04.js';
import { migration05 } from './migrations/v05.js';
import { migration06 } from './migrations/v06.js';
import { migration07 } from './migrations/v07.js';
import { migration08 } from './migrations/v08.js';
import { migration09 } from './migrations/v09.js';
import { migration10 } from './migrations/v10.js';
import { migration11 } from './migrations/v11.js';
import { migration12 } from './migrations/v12.js';
import { migration13 } from './migrations/v13.js';
import { migration14 } from './migrations/v14.js';
import { migration15 } from './migrations/v15.js';
import { migration16 } from './migrations/v16.js';
import { migration17 } from './migrations/v17.js';
import { migration18 } from './migrations/v18.js';
import { migration19 } from './migrations/v19.js';

export const migrations: readonly string[] = [
  migration01,
  migration02,
  migration03,
  migration04,
  migration05,
  migration06,
  migration07,
  migration08,
  migration09,
  migration10,
  migration11,
  migration12,
  migration13,
  migration14,
  migration15,
  migration16,
  migration17,
  migration18,
  migration19,
];
