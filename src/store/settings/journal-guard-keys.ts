import { z } from 'zod';
import { settingKey } from './setting-keys.js';

/**
 * What the journal's guards outside the database found at open (agent/journal/open-journal.ts), kept for
 * status and doctor: the last restore of the data directory recognised (the NSR gap it left), and
 * whether a mirror outside the data directory is kept at all.
 */
export type JournalRestoreRecord = { at: number; from: number; to: number; where: string };
/** `fleet`: where the NSR mark is also kept in the fleet's Redis (its key), when rateLimit.redisUrl is set. */
export type JournalGuardRecord = { mirror: string | null; mirrorProblem: string | null; fleet?: string | null };

export const journalGuardKeys = {
  restore: settingKey<JournalRestoreRecord | null>(
    'journal_restore',
    z.looseObject({ at: z.number(), from: z.number(), to: z.number(), where: z.string() }).nullable(),
    null,
  ),
  guard: settingKey<JournalGuardRecord | null>(
    'journal_guard',
    z
      .looseObject({
        mirror: z.string().nullable(),
        mirrorProblem: z.string().nullable(),
        fleet: z.string().nullable().optional(),
      })
      .nullable(),
    null,
  ),
} as const;
