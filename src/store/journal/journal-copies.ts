import path from 'node:path';
import type { Sidecar, SidecarCopy } from '../../domain/punch/nsr-reservation.js';
import { JOURNAL_HEAD_FILE, readSidecar, writeHead, writeSidecar, type JournalHead } from './journal-nsr.js';
import { mirrorFileFor, mirrorHeadFileFor } from './nsr-mirror.js';

/**
 * The journal's records outside the database: the NSR sidecar beside it (`journal-nsr.json`), its
 * mirror outside the data directory (store/journal/nsr-mirror.ts), and the chain's head in both places.
 * A copy that cannot be written never stops a punch: said (once for the mirror and the head), and
 * the database goes on alone.
 */
export class JournalCopies {
  private mirrorFailed = false;
  private headFailed = false;

  constructor(
    /** Null: a database without a directory (in memory): no copies at all. */
    private readonly sidecar: string | null,
    private readonly mirrorDir: string | null,
    private readonly warn: (message: string) => void,
    private outside: OutsideCopies = {},
  ) {}

  /**
   * The copies read at start from outside (the fleet's Redis) are judged at the open only: later they would be stale.
   */
  forgetStartCopies(): void {
    this.outside = { ...this.outside, atStart: [] };
  }

  /** The sidecar beside the database, then the mirror's copy (each unreadable one said and taken as absent). */
  read(journalId: string): SidecarCopy[] {
    const copies: SidecarCopy[] = [];
    for (const [file, where] of [
      [this.sidecar, 'journal-nsr.json'],
      [this.mirrorDir ? mirrorFileFor(this.mirrorDir, journalId) : null, `the NSR mirror ${this.mirrorDir ?? ''}`],
    ] as const) {
      if (file === null) continue;
      const read = readSidecar(file);
      if (read.problem) this.warn(read.problem);
      copies.push({ sidecar: read.sidecar, where });
    }
    return [...copies, ...(this.outside.atStart ?? [])];
  }

  write(s: Sidecar): void {
    if (this.sidecar === null) return;
    // Only what the database committed (never a pending raise, which a crash may undo).
    this.tellOutside(() => this.outside.keep?.reserved(s.journalId, Math.max(s.reservedTo, s.lastGiven ?? 0)));
    try {
      writeSidecar(this.sidecar, s);
    } catch (e) {
      this.warn(
        `the NSR sidecar could not be written (${(e as Error).message}): NSRs are reserved in the database only until it can`,
      );
    }
    if (!this.mirrorDir) return;
    const mirror = mirrorFileFor(this.mirrorDir, s.journalId);
    try {
      writeSidecar(mirror, s);
      this.mirrorFailed = false;
    } catch (e) {
      if (!this.mirrorFailed)
        this.warn(
          `the NSR mirror ${mirror} could not be written (${(e as Error).message}): a restore of the data directory may not be recognised until it can`,
        );
      this.mirrorFailed = true;
    }
  }

  /**
   * The chain's head (last NSR and hash, as committed) beside the sidecar and in the mirror, so a
   * rewritten and re-hashed tail no longer matches what was recorded outside the database
   * (store/journal/journal-agree.ts).
   */
  writeHead(head: JournalHead): void {
    if (this.sidecar === null) return;
    this.tellOutside(() => this.outside.keep?.given(head.journalId, head.nsr));
    try {
      writeHead(path.join(path.dirname(this.sidecar), JOURNAL_HEAD_FILE), head);
      if (this.mirrorDir) writeHead(mirrorHeadFileFor(this.mirrorDir, head.journalId), head);
      this.headFailed = false;
    } catch (e) {
      if (!this.headFailed)
        this.warn(`the journal's head could not be recorded outside the database: ${(e as Error).message}`);
      this.headFailed = true;
    }
  }

  private tellOutside(tell: () => void): void {
    try {
      tell();
    } catch (e) {
      this.warn(`the NSR mark could not be passed on: ${(e as Error).message}`);
    }
  }
}

/**
 * Copies kept where a restore of the data directory (and of the mirror) does not reach: the
 * fleet's Redis (sync/fleet/redis-nsr-mark.ts). `atStart`: as read before the journal opened;
 * `keep`: told the committed reservation and the last NSR given to a mark, as they grow.
 */
export type OutsideCopies = {
  atStart?: SidecarCopy[];
  keep?: { reserved(journalId: string, nsr: number): void; given(journalId: string, nsr: number): void };
  /** After the journal's clean stop: what is still to be sent is sent, then the connection closes. */
  close?: () => Promise<void>;
};
