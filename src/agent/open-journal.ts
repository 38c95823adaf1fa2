import fs from 'node:fs';
import type { Config } from '../config.js';
import { chooseTimeZone } from '../domain/local-time.js';
import type { DurableDb } from '../store/database.js';
import { EvidenceJournal } from '../store/evidence-journal.js';
import { backfillJournal } from '../store/journal-backfill.js';
import { journalGuardKeys } from '../store/journal-guard-keys.js';
import { SYSTEM_NSR_MIRROR_DIR } from '../store/nsr-mirror.js';
import { settingKeys } from '../store/setting-keys.js';
import { readSetting, writeSetting } from '../store/settings.js';
import { systemTimeZone, type Runtime } from './runtime.js';

/**
 * The directory outside the data directory where the NSR reservation and the chain's head are
 * mirrored: `journal.nsrMirrorPath` ("" none), else the package's /var/lib/timeclock-kiosk-nsr
 * when it exists (a development checkout has none, and says so in doctor).
 */
export function nsrMirrorDir(config: Pick<Config, 'journal'>, exists: (p: string) => boolean = fs.existsSync): string | null {
  const set = config.journal.nsrMirrorPath;
  if (set !== undefined) return set.trim() === '' ? null : set;
  return exists(SYSTEM_NSR_MIRROR_DIR) ? SYSTEM_NSR_MIRROR_DIR : null;
}

/**
 * The evidence journal at the agent's open: the NSR sidecar and its mirror compared with the
 * database (a restore is recognised here and its gap recorded), a new block reserved, and punches
 * from before the journal journalled. A failure is logged, never fatal: punches are still taken.
 */
export function openJournal(db: DurableDb, config: Config, rt: Runtime): EvidenceJournal {
  const mirrorDir = nsrMirrorDir(config);
  let mirrorProblem: string | null = null;
  const journal = new EvidenceJournal(db, {
    mirrorDir,
    warn: (message) => {
      if (/NSR mirror/.test(message)) mirrorProblem = message;
      rt.log.warn(message);
    },
    now: () => rt.clock.now(),
  });
  try {
    const judged = journal.open();
    if (judged.kind === 'restored') {
      rt.log.warn('evidence journal: the database is older than its NSR reservation', { gapFrom: judged.from, gapTo: judged.to, where: journal.lastRestore?.where });
      writeSetting(db, journalGuardKeys.restore, { at: rt.clock.now(), from: judged.from, to: judged.to, where: journal.lastRestore?.where ?? 'journal-nsr.json' });
    }
    writeSetting(db, journalGuardKeys.guard, { mirror: mirrorDir, mirrorProblem });
    const zone = chooseTimeZone([readSetting(db, settingKeys.site)?.timezone, config.timezone, systemTimeZone()]);
    const b = backfillJournal(journal, { now: rt.clock.now(), unresolvedZone: zone });
    if (b.marks > 0) rt.log.info('punches from before the evidence journal journalled', { marks: b.marks, first: b.first, last: b.last, ms: b.ms });
  } catch (e) {
    rt.log.error('the evidence journal could not be opened; punches are still taken', { error: (e as Error).message });
  }
  return journal;
}
