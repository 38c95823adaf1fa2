import path from 'node:path';
import type { Config } from '../../config.js';
import type { SidecarCopy } from '../../domain/punch/nsr-reservation.js';
import type { Logger } from '../../log.js';
import { DB_FILE_NAME } from '../../store/database.js';
import type { OutsideCopies } from '../../store/journal/journal-copies.js';
import { readSidecar, sidecarPathFor } from '../../store/journal/journal-nsr.js';
import { nsrMarkKey, readNsrMark, RedisNsrMark } from '../../sync/fleet/redis-nsr-mark.js';

/**
 * The NSR high-water mark in the fleet's Redis (issue 26 item 7), with `rateLimit.redisUrl`: read
 * once before the journal opens (a restore of the data directory and of the mirror is then
 * recognised against it, as against the mirror), raised as NSRs are reserved and given.
 */

/** Where the restore's fact says the furthest reservation was found. */
export const fleetWhere = (journalId: string): string => `the fleet's Redis (${nsrMarkKey(journalId)})`;

/**
 * The mark Redis holds for this data directory's journal (its id from `journal-nsr.json`), as a copy
 * of the reservation; null without Redis, without a journal yet, or when Redis does not answer in
 * time (said in the log: the terminal starts without it).
 */
export async function readFleetNsr(
  config: Pick<Config, 'dataDir' | 'rateLimit'>,
  log: Pick<Logger, 'warn'>,
  timeoutMs = 2_000,
): Promise<SidecarCopy | null> {
  const url = config.rateLimit.redisUrl;
  const sidecarFile = sidecarPathFor(path.join(config.dataDir, DB_FILE_NAME));
  if (!url || sidecarFile === null) return null;
  const journalId = readSidecar(sidecarFile).sidecar?.journalId;
  if (!journalId) return null;
  try {
    const mark = await readNsrMark(url, journalId, timeoutMs);
    if (mark === null) return null;
    return {
      sidecar: { journalId, reservedTo: mark.reserved, pending: null, lastGiven: mark.given > 0 ? mark.given : null },
      where: fleetWhere(journalId),
    };
  } catch (e) {
    // The URL may carry a password: not logged.
    log.warn('the NSR mark in Redis could not be read at start: a restore of the data directory is judged without it', {
      error: (e as Error).message,
    });
    return null;
  }
}

/** The journal's copies outside (Redis): the mark read at start and a writer; null without Redis. */
export function fleetNsrCopies(
  config: Pick<Config, 'rateLimit'>,
  atStart: SidecarCopy | null,
  log: Pick<Logger, 'warn'>,
): { copies: OutsideCopies; close(): Promise<void> } | null {
  const url = config.rateLimit.redisUrl;
  if (!url) return null;
  const mark = new RedisNsrMark(url, (m) => log.warn(m));
  return {
    copies: {
      atStart: atStart ? [atStart] : [],
      keep: {
        reserved: (id, nsr) => mark.raise(id, { reserved: nsr }),
        given: (id, nsr) => mark.raise(id, { given: nsr }),
      },
    },
    close: () => mark.close(),
  };
}
