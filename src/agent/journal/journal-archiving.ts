import type { Config } from '../../config.js';
import type { Clock, Monotonic } from '../../domain/time/clock.js';
import type { Logger } from '../../log.js';
import type { WritableDb } from '../../store/database.js';
import { loadAfdSigner, type AfdSigner } from '../exports/afd-signature.js';
import { archiveJournal, type ArchivePassResult } from './journal-archiver.js';
import { recordArchivePass } from '../../store/upkeep/journal-archive-summary.js';

/**
 * The retention pass's journal archiving with the agent's settings: journal.archiveAfterDays and
 * keepYears, the seals signed with afd.signingKey when it is set (a key that does not load is
 * logged and the archive written unsigned: the rows must still leave a small disk).
 */
export function journalArchiving(c: { db: WritableDb; config: Config; clock: Clock; mono: Monotonic; log: Logger }) {
  const { db, config, clock, mono, log } = c;
  const signer = (): AfdSigner | null => {
    if (!config.afd.signingKey) return null;
    try {
      return loadAfdSigner(config.afd.signingKey, config.afd.signingKeyPassword, new Date(clock.now()));
    } catch (e) {
      log.warn('journal archives: afd.signingKey did not load; this pass seals them unsigned', {
        error: (e as Error).message,
      });
      return null;
    }
  };
  // Each run's result is kept for status and doctor (store/upkeep/journal-archive-summary.ts); a failure still fails
  // the pass.
  return async (step: { pause: () => Promise<void>; stopped: () => boolean }): Promise<ArchivePassResult> => {
    const at = clock.now();
    try {
      const r = await archiveJournal({
        db,
        settings: { archiveAfterDays: config.journal.archiveAfterDays, keepYears: config.journal.keepYears },
        now: () => clock.now(),
        mono,
        signer,
        ...step,
      });
      recordArchivePass(db, {
        at,
        outcome: 'done',
        archives: r.archives.length,
        marks: r.marks,
        removed: r.removed.length,
        error: null,
      });
      return r;
    } catch (e) {
      recordArchivePass(db, { at, outcome: 'failed', archives: 0, marks: 0, removed: 0, error: (e as Error).message });
      throw e;
    }
  };
}
