import type { LoadedConfig } from '../../config.js';
import type { Clock } from '../../domain/time/clock.js';
import type { Logger } from '../../log.js';
import { adoptDataDir, type Adoption } from '../../store/upkeep/adopt-data-dir.js';

export { adoptDataDir, overlappingDirs, type Adoption } from '../../store/upkeep/adopt-data-dir.js';

/**
 * At start-up, before the agent takes its data directory: when that is the default system
 * directory and has no database yet, the queue an earlier version left in the per-user directory
 * is adopted (src/store/upkeep/adopt-data-dir.ts). Never stops the start: a terminal that cannot adopt
 * still takes punches, and the log says why the old queue was left where it is.
 */
export async function adoptLegacyQueue(
  loaded: Pick<LoadedConfig, 'config'> & Partial<Pick<LoadedConfig, 'legacyDataDir'>>,
  clock: Clock,
  log: Logger,
): Promise<Adoption | null> {
  const from = loaded.legacyDataDir;
  if (!from) return null; // a configured directory, or the per-user one itself: nothing to adopt from
  const result = await adoptDataDir(from, loaded.config.dataDir, clock);
  if (result.outcome === 'adopted') {
    log.info(result.message, {
      from: result.from,
      to: result.to,
      renamedTo: result.renamedTo,
      waiting: result.waiting,
      total: result.total,
    });
  } else if (result.outcome === 'not-adopted') {
    log.warn(result.message, { from, to: loaded.config.dataDir, reason: result.reason });
  }
  return result;
}
