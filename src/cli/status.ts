import fs from 'node:fs';
import path from 'node:path';
import { storedSettingsView } from '../agent/settings.js';
import { readStatus } from '../agent/status.js';
import { loadConfig, terminalIdOf } from '../config.js';
import { DB_FILE_NAME, openDatabase } from '../store/database.js';
import { Outbox } from '../store/outbox.js';
import { RateSlots } from '../store/rate-slots.js';
import { Identities } from '../store/identities.js';
import { lockOwner } from '../store/lock.js';
import { Roster } from '../store/roster.js';
import { UnresolvedPunches } from '../store/unresolved.js';
import { statusText } from './format.js';
import { Exit, type CliOptions } from './options.js';

/** Reads the terminal's database directly, so it works beside a running agent (WAL readers). */
export async function runStatus(opts: CliOptions): Promise<number> {
  const { config, demo } = loadConfig({ file: opts.config });
  if (!fs.existsSync(path.join(config.dataDir, DB_FILE_NAME))) {
    process.stderr.write(`timeclock: no terminal data in ${config.dataDir} yet (start the terminal first, or set TIMECLOCK_DATA_DIR)\n`);
    return Exit.error;
  }
  const db = openDatabase(config.dataDir);
  try {
    const settings = storedSettingsView(db, config, demo);
    const status = readStatus({
      db,
      outbox: new Outbox(db),
      roster: new Roster(db),
      rateSlots: new RateSlots(db),
      identities: new Identities(db),
      unresolved: new UnresolvedPunches(db),
      rule: settings.rateLimit,
      settings,
      now: Date.now(),
      terminalId: terminalIdOf(config),
      rosterRefreshMs: config.roster.refreshMs,
      retention: config.retention,
    });
    status.agentRunning = lockOwner(config.dataDir) !== null;
    process.stdout.write((opts.json ? JSON.stringify(status) : `data: ${config.dataDir}\n${statusText(status)}`) + '\n');
    return Exit.ok;
  } finally {
    db.close();
  }
}
