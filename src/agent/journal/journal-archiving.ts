import type { Config } from '../../config.js';
import type { Clock, Monotonic } from '../../domain/clock.js';
import type { Logger } from '../../log.js';
import type { WritableDb } from '../../store/database.js';
import { loadAfdSigner, type AfdSigner } from '../exports/afd-signature.js';
import { archiveJournal, type ArchivePassResult } from './journal-archiver.js';

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
  return (step: { pause: () => Promise<void>; stopped: () => boolean }): Promise<ArchivePassResult> =>
    archiveJournal({
      db,
      settings: { archiveAfterDays: config.journal.archiveAfterDays, keepYears: config.journal.keepYears },
      now: () => clock.now(),
      mono,
      signer,
      ...step,
    });
}
