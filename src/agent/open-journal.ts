import type { Config } from '../config.js';
import { chooseTimeZone } from '../domain/local-time.js';
import type { DurableDb } from '../store/database.js';
import { EvidenceJournal } from '../store/evidence-journal.js';
import { backfillJournal } from '../store/journal-backfill.js';
import { settingKeys } from '../store/setting-keys.js';
import { readSetting } from '../store/settings.js';
import { systemTimeZone, type Runtime } from './runtime.js';

/**
 * The evidence journal at the agent's open: the NSR sidecar compared with the database (a restore
 * is recognised here and its gap recorded), a new block reserved, and punches from before the
 * journal journalled. A failure is logged, never fatal: punches are still taken (and journalled).
 */
export function openJournal(db: DurableDb, config: Config, rt: Runtime): EvidenceJournal {
  const journal = new EvidenceJournal(db, { warn: (message) => rt.log.warn(message), now: () => rt.clock.now() });
  try {
    const judged = journal.open();
    if (judged.kind === 'restored') rt.log.warn('evidence journal: the database is older than its NSR reservation', { gapFrom: judged.from, gapTo: judged.to });
    const zone = chooseTimeZone([readSetting(db, settingKeys.site)?.timezone, config.timezone, systemTimeZone()]);
    const b = backfillJournal(journal, { now: rt.clock.now(), unresolvedZone: zone });
    if (b.marks > 0) rt.log.info('punches from before the evidence journal journalled', { marks: b.marks, first: b.first, last: b.last, ms: b.ms });
  } catch (e) {
    rt.log.error('the evidence journal could not be opened; punches are still taken', { error: (e as Error).message });
  }
  return journal;
}
