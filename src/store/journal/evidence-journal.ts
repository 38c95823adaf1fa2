import { buildClockRecord } from '../../domain/afd/clock-record.js';
import { collectedOnline, COLLECTOR_DEVICE, MARK_BODY_LENGTH, sealMark } from '../../domain/afd/mark.js';
import type { Judgement } from '../../domain/punch/nsr-reservation.js';
import type { WritableDb } from '../database.js';
import { JournalFacts, sha256Latin1 } from './journal-facts.js';
import { JournalCopies, type OutsideCopies } from './journal-copies.js';
import { NSR_BLOCK, sidecarPathFor } from './journal-nsr.js';
import { NsrReservation } from './journal-reservation.js';
import { afdInstant, cpfForMark, markedAt } from './mark-fields.js';
import { INSERT_MARK_SQL, MARK_COLUMNS_SQL } from '../mark-columns.js';

/**
 * The evidence journal's writer (Portaria 671, Annex V): one AFD type 7 record per punch, keyed by
 * its NSR and chained by SHA-256 (domain/afd/mark.ts), appended in the punch's own transaction, and
 * the facts that follow (store/journal/journal-facts.ts). Everything the chain depends on — the previous
 * record's hash, the next NSR, the reservation (store/journal/journal-reservation.ts) — is read inside the
 * caller's write transaction:
 * the durable and the bookkeeping connection (and the command line beside the agent) all write
 * this file.
 */

export type MarkInput = {
  /** From `reserveNsr()`, in the same transaction. */
  nsr: number;
  /** The captured instant (UTC ms) and the punch's local date and time in `zone`. */
  at: number;
  localDate: string;
  localTime: string;
  zone: string;
  /** When the record is written (UTC ms): the capture, or the upgrade that journalled an older punch. */
  recordedAt: number;
  /** The worker's CPF as the roster has it (any mask), or null when not known at capture. */
  cpf: string | null;
  punchId?: number | null;
  unresolvedId?: number | null;
  /** The employer's chain (store/roster/employers.ts chainOf); '' or absent: the configured employer's. */
  chain?: string;
};

export type JournalOptions = {
  /** The sidecar file; default `journal-nsr.json` beside the database, none for an in-memory one. */
  sidecar?: string | null;
  /**
   * A directory outside the data directory where a copy of the sidecar is kept too
   * (store/journal/nsr-mirror.ts): a restore of the whole data directory does not roll it back. Null: none.
   */
  mirrorDir?: string | null;
  /** Something the operator should know (a restore, a missing or foreign sidecar); never throws. */
  warn?: (message: string) => void;
  /** The instant of a journal event (a restore recognised). */
  now?: () => number;
  block?: number;
  /** Copies outside the data directory and its mirror (the fleet's Redis): store/journal/journal-copies.ts. */
  outside?: OutsideCopies;
  /** Tests: runs between the sidecar's write and the database's (a crash there is not a restore). */
  afterSidecarWrite?: () => void;
  /**
   * Runs the head's write later (the agent: after the punch's answer); absent: at once. A head written late is an
   * older head, which the file's contract allows (store/journal/journal-nsr.ts writeHead).
   */
  headLater?: (write: () => void) => void;
};

/** A mark's line only where its columns do not give its hash directly, and the stored hash in lowercase hex. */
const TAIL_COLUMNS = 'CASE WHEN verbatim IS NOT NULL OR nsr > 999999999 THEN line END AS line, lower(hex(hash)) AS hex';
type TailRow = { line: unknown; hex: unknown };

/** The hash at the end of a mark's line (TAIL_COLUMNS); null when the row has no line. */
function tailHash(r: TailRow): string | null {
  if (typeof r.line === 'string') return r.line.slice(MARK_BODY_LENGTH);
  return typeof r.hex === 'string' ? r.hex : null;
}

export class EvidenceJournal {
  readonly facts: JournalFacts;
  private readonly stmts;
  private readonly sidecar: string | null;
  /** The sidecar, its mirror and the chain's head outside the database. */
  private readonly copies: JournalCopies;
  /** The NSR reservation in `journal_meta`, judged against the sidecar's copies. */
  private readonly reservation: NsrReservation;
  /** A mark was appended since the chain's head was last written outside the database. */
  private headDirty = false;
  /** A later write of the head is asked for (`headLater`) and has not run yet. */
  private headAsked = false;
  /** The last restore recognised by this process (status and doctor say it). */
  get lastRestore(): { from: number; to: number; where: string } | null {
    return this.reservation.lastRestore;
  }

  constructor(
    readonly db: WritableDb,
    private readonly o: JournalOptions = {},
  ) {
    this.facts = new JournalFacts(db);
    this.sidecar = o.sidecar === undefined ? sidecarPathFor(db.name) : o.sidecar;
    this.copies = new JournalCopies(this.sidecar, o.mirrorDir ?? null, (m) => this.warn(m), o.outside);
    this.reservation = new NsrReservation(
      db,
      this.sidecar,
      o.block ?? NSR_BLOCK,
      this.copies,
      this.facts,
      () => this.last(),
      { now: o.now, afterSidecarWrite: o.afterSidecarWrite, warn: (m) => this.warn(m) },
    );
    this.stmts = {
      // The hash a line ends with, without rebuilding the line (a virtual column, on every punch's path): a line the
      // columns rebuild ends with its stored hash in lowercase hex after a body of MARK_BODY_LENGTH characters (9 of
      // them the NSR); only a verbatim line, or a longer NSR, is read whole (tailHash).
      last: db.prepare(`SELECT nsr, ${TAIL_COLUMNS} FROM journal_marks ORDER BY nsr DESC LIMIT 1`),
      // The chain's last mark through its tail (migration 18: one row per chain, kept by a trigger on insert).
      lastOfChain: db.prepare(
        `SELECT ${TAIL_COLUMNS} FROM journal_marks WHERE nsr = (SELECT nsr FROM journal_chain_tails WHERE chain = ?)`,
      ),
      // A chain whose every mark was archived (store/journal/journal-archive.ts) goes on from its last archived hash.
      archivedOfChain: db.prepare('SELECT hash FROM journal_archive_heads WHERE chain = ?'),
      // The line's fields and 32-byte hash, rebuilt on read (migration 14, store/mark-columns.ts).
      columns: db.prepare(MARK_COLUMNS_SQL),
      insert: db.prepare(INSERT_MARK_SQL),
    };
  }

  /**
   * The last mark: its NSR and its hash (a damaged line still has one: the chain goes on, verification says what is
   * wrong).
   */
  private last(): { nsr: number; hash: string } | null {
    const r = this.stmts.last.get() as ({ nsr: unknown } & TailRow) | undefined;
    if (!r) return null;
    if (typeof r.nsr !== 'number') throw new Error("the evidence journal's last mark is not readable");
    return { nsr: r.nsr, hash: tailHash(r) ?? '' };
  }

  /** The journal's id, the NSR the next mark takes, and the reservation (status). */
  info(): { journalId: string; nextNsr: number; reservedTo: number } {
    const meta = this.reservation.meta();
    return {
      journalId: meta.journal_id,
      nextNsr: this.reservation.nextOf(meta, this.last()),
      reservedTo: meta.reserved_to,
    };
  }

  /**
   * The NSR the next mark takes, reserved in the sidecar first when it is beyond the reservation
   * (with `ahead` more: a batch reserves once). Inside the caller's write transaction (begin it
   * IMMEDIATE when a read comes first).
   */
  reserveNsr(ahead = 0): number {
    return this.reservation.reserve(ahead);
  }

  /** Appends the mark of a punch (or unresolved capture) with the NSR `reserveNsr()` gave, in the same transaction. */
  appendMark(m: MarkInput): { nsr: number; line: string } {
    const meta = this.reservation.meta();
    const last = this.last();
    const expected = this.reservation.nextOf(meta, last);
    if (m.nsr !== expected || expected > meta.reserved_to)
      throw new Error(
        `NSR ${m.nsr} is not the next reserved one (${expected}): reserveNsr() first, in the same transaction`,
      );
    const marked = markedAt(m.localDate, m.localTime, m.at, m.zone);
    // Each employer's marks chain among themselves (migration 12): its AFD is then a whole chain.
    const chain = m.chain ?? '';
    const previous = this.stmts.lastOfChain.get(chain) as TailRow | undefined;
    const archived = previous ? undefined : (this.stmts.archivedOfChain.get(chain) as { hash: unknown } | undefined);
    const previousHash =
      previous && tailHash(previous) !== null
        ? (tailHash(previous) as string)
        : typeof archived?.hash === 'string'
          ? archived.hash
          : '';
    const sealed = sealMark(
      {
        nsr: m.nsr,
        markedAt: marked,
        cpf: cpfForMark(m.cpf),
        // A live capture is recorded as it is marked: the same instant, the same local time.
        recordedAt: m.recordedAt === m.at ? marked : afdInstant(m.recordedAt, m.zone),
        collector: COLLECTOR_DEVICE,
        // On-line: recorded in the journal as it was taken; off-line: journalled later (the upgrade's backfill).
        online: collectedOnline(m.at, m.recordedAt),
      },
      previousHash,
      sha256Latin1,
    );
    this.stmts.insert.run(
      this.stmts.columns.get({
        nsr: m.nsr,
        line: sealed.line,
        punch_id: m.punchId ?? null,
        unresolved_id: m.unresolvedId ?? null,
        local_date: m.localDate,
        written_at: m.recordedAt,
        chain,
      }) as Record<string, unknown>,
    );
    this.headDirty = true;
    return { nsr: m.nsr, line: sealed.line };
  }

  /**
   * The AFD type 4 record ("ajuste do relógio") after marks sealed on a clock found wrong
   * (`before`: the terminal's clock now, `after`: the service's): an NSR of its own from the one
   * sequence, kept as a 'clock_adjusted' fact, which the facts' chain seals. In the caller's write
   * transaction (settle() after it); the NSR it took.
   */
  appendClockAdjustment(a: {
    before: number;
    after: number;
    zone: string;
    at: number;
    corrects: readonly number[];
  }): number {
    const nsr = this.reserveNsr();
    const line = buildClockRecord({ nsr, before: afdInstant(a.before, a.zone), after: afdInstant(a.after, a.zone) });
    this.facts.append(nsr, a.at, 'clock_adjusted', `${line} corrects NSR ${a.corrects.join(',')}`);
    this.reservation.raiseFloor(nsr + 1);
    return nsr;
  }

  /** After the transaction of a raise ended: the sidecar says what the database holds (step 3). */
  settle(): void {
    if (this.db.inTransaction) return;
    if (this.headDirty) this.headSoon();
    this.reservation.settle();
  }

  /**
   * At open, under the write lock: compares the sidecar with the database (a restore, a crash
   * mid-raise, a lost sidecar) and reserves a new block, so a copy of this database taken before
   * now is recognised if it is ever put back.
   */
  open(): Judgement {
    const judged = this.reservation.open();
    this.copies.forgetStartCopies();
    this.settle();
    return judged;
  }

  /**
   * At a clean stop: the sidecar records the last NSR given, so a copy of the database taken during
   * this run is recognised if it is put back. Never throws (the database closes anyway).
   */
  close(): void {
    if (this.sidecar === null || !this.db.open) return;
    if (this.headDirty) this.writeHead();
    this.reservation.close();
  }

  /** The head now, or once through `headLater` for any number of commits before it runs. */
  private headSoon(): void {
    const later = this.o.headLater;
    if (!later) return this.writeHead();
    if (this.headAsked) return;
    this.headAsked = true;
    later(() => {
      this.headAsked = false;
      if (!this.headDirty || !this.db.open) return;
      if (this.db.inTransaction) this.headSoon();
      else this.writeHead();
    });
  }

  /** The chain's head after a commit (store/journal/journal-copies.ts); never fails a punch. */
  private writeHead(): void {
    this.headDirty = false;
    if (this.sidecar === null) return;
    try {
      const last = this.last();
      if (last !== null)
        this.copies.writeHead({ journalId: this.reservation.meta().journal_id, nsr: last.nsr, hash: last.hash });
    } catch (e) {
      this.warn(`the journal's head could not be read: ${(e as Error).message}`);
    }
  }

  /** After close(): the copies outside (Redis) receive the last values and let go; never throws. */
  async closeOutside(): Promise<void> {
    try {
      await this.o.outside?.close?.();
    } catch (e) {
      this.warn(`the NSR mark outside could not be closed: ${(e as Error).message}`);
    }
  }

  private warn(message: string): void {
    try {
      this.o.warn?.(message);
    } catch {
      /* a warning must never fail a punch */
    }
  }
}
