import fs from 'node:fs';
import type { Config } from '../../config.js';
import { chooseTimeZone } from '../../domain/time/local-time.js';
import type { DurableDb } from '../../store/database.js';
import { EvidenceJournal } from '../../store/journal/evidence-journal.js';
import { backfillJournal } from '../../store/journal/journal-backfill.js';
import { journalGuardKeys } from '../../store/settings/journal-guard-keys.js';
import { SYSTEM_NSR_MIRROR_DIR } from '../../store/journal/nsr-mirror.js';
import { settingKeys } from '../../store/settings/setting-keys.js';
import { readSetting, writeSetting } from '../../store/settings/settings.js';
import { systemTimeZone, type Runtime } from '../host/runtime.js';
import type { SidecarCopy } from '../../domain/punch/nsr-reservation.js';
import { fleetNsrCopies, fleetWhere } from './fleet-nsr.js';

/**
 * The directory outside the data directory where the NSR reservation and the chain's head are
 * mirrored: `journal.nsrMirrorPath` ("" none), else the package's /var/lib/timeclock-kiosk-nsr
 * when it exists (a development checkout has none, and says so in doctor).
 */
export function nsrMirrorDir(
  config: { journal: Pick<Config['journal'], 'nsrMirrorPath'> & Partial<Config['journal']> },
  exists: (p: string) => boolean = fs.existsSync,
): string | null {
  const set = config.journal.nsrMirrorPath;
  if (set !== undefined) return set.trim() === '' ? null : set;
  return exists(SYSTEM_NSR_MIRROR_DIR) ? SYSTEM_NSR_MIRROR_DIR : null;
}

/**
 * The evidence journal at the agent's open: the NSR sidecar, its mirror and the fleet's Redis mark
 * (`fleetNsr`, read before the build) compared with the database (a restore is recognised here and its gap recorded), a
 * new block reserved, and punches
 * from before the journal journalled. A failure is logged, never fatal: punches are still taken.
 */
export function openJournal(
  db: DurableDb,
  config: Config,
  rt: Runtime,
  fleetNsr: SidecarCopy | null = null,
): EvidenceJournal {
  const mirrorDir = nsrMirrorDir(config);
  // The fleet's Redis, with rateLimit.redisUrl: where neither a restore of the data directory nor of the mirror
  // reaches.
  const fleet = fleetNsrCopies(config, fleetNsr, rt.log);
  let mirrorProblem: string | null = null;
  const journal = new EvidenceJournal(db, {
    mirrorDir,
    warn: (message) => {
      if (/NSR mirror/.test(message)) mirrorProblem = message;
      rt.log.warn(message);
    },
    now: () => rt.clock.now(),
    // The head file is renamed over the last one (a flush on ext4): after the punch's answer, once for a burst.
    headLater: (write) => void setImmediate(write),
    ...(fleet ? { outside: { ...fleet.copies, close: fleet.close } } : {}),
  });
  try {
    const judged = journal.open();
    if (judged.kind === 'restored') {
      rt.log.warn('evidence journal: the database is older than its NSR reservation', {
        gapFrom: judged.from,
        gapTo: judged.to,
        where: journal.lastRestore?.where,
      });
      writeSetting(db, journalGuardKeys.restore, {
        at: rt.clock.now(),
        from: judged.from,
        to: judged.to,
        where: journal.lastRestore?.where ?? 'journal-nsr.json',
      });
    }
    writeSetting(db, journalGuardKeys.guard, {
      mirror: mirrorDir,
      mirrorProblem,
      fleet: fleet ? fleetWhere(journal.info().journalId) : null,
    });
    const zone = chooseTimeZone([readSetting(db, settingKeys.site)?.timezone, config.timezone, systemTimeZone()]);
    const b = backfillJournal(journal, { now: rt.clock.now(), unresolvedZone: zone });
    if (b.marks > 0)
      rt.log.info('punches from before the evidence journal journalled', {
        marks: b.marks,
        first: b.first,
        last: b.last,
        ms: b.ms,
      });
  } catch (e) {
    rt.log.error('the evidence journal could not be opened; punches are still taken', { error: (e as Error).message });
  }
  return journal;
}
