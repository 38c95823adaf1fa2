import { buildClockRecord } from '../../domain/afd/clock-record.js';
import { collectedOnline, COLLECTOR_DEVICE, MARK_BODY_LENGTH, sealMark } from '../../domain/afd/mark.js';
import { restoredDetail } from '../../domain/punch/journal-fact.js';
import {
  furthestCopy,
  highWater,
  judgeReservation,
  nextReservation,
  type Judgement,
  type Sidecar,
} from '../../domain/punch/nsr-reservation.js';
import type { WritableDb } from '../database.js';
import { JournalFacts, sha256Latin1 } from './journal-facts.js';
import { JournalCopies, type OutsideCopies } from './journal-copies.js';
import { NSR_BLOCK, sidecarPathFor } from './journal-nsr.js';
import { afdInstant, cpfForMark, markedAt } from './mark-fields.js';
import { INSERT_MARK_SQL, MARK_COLUMNS_SQL } from '../mark-columns.js';

/**
 * The evidence journal's writer (Portaria 671, Annex V): one AFD type 7 record per punch, keyed by
 * its NSR and chained by SHA-256 (domain/afd/mark.ts), appended in the punch's own transaction, and
 * the facts that follow (store/journal/journal-facts.ts). Everything the chain depends on — the previous
 * record's hash, the next NSR, the reservation — is read inside the caller's write transaction:
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

type Meta = { journal_id: string; reserved_to: number; nsr_floor: number };

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
  private readonly block: number;
  /**
   * A raise of ours awaits its step 3 (domain/punch/nsr-reservation.ts), done by `settle()` after the
   * commit: the reservation the sidecar still calls committed. Until then a further raise keeps
   * that value (its transaction may not commit), so a rollback never looks like a restore.
   */
  private unsettled: number | null = null;
  /** The sidecar, its mirror and the chain's head outside the database. */
  private readonly copies: JournalCopies;
  /** A mark was appended since the chain's head was last written outside the database. */
  private headDirty = false;
  /** A later write of the head is asked for (`headLater`) and has not run yet. */
  private headAsked = false;
  /** The last restore recognised by this process (status and doctor say it). */
  lastRestore: { from: number; to: number; where: string } | null = null;

  constructor(
    readonly db: WritableDb,
    private readonly o: JournalOptions = {},
  ) {
    this.facts = new JournalFacts(db);
    this.sidecar = o.sidecar === undefined ? sidecarPathFor(db.name) : o.sidecar;
    this.block = o.block ?? NSR_BLOCK;
    this.copies = new JournalCopies(this.sidecar, o.mirrorDir ?? null, (m) => this.warn(m), o.outside);
    this.stmts = {
      meta: db.prepare('SELECT journal_id, reserved_to, nsr_floor FROM journal_meta WHERE one = 1'),
      // The hash a line ends with, without rebuilding the line (a virtual column, on every punch's path): a line the
      // columns rebuild ends with its stored hash in lowercase hex after a body of MARK_BODY_LENGTH characters (9 of
      // them the NSR); only a verbatim line, or a longer NSR, is read whole (tailHash).
      last: db.prepare(`SELECT nsr, ${TAIL_COLUMNS} FROM journal_marks ORDER BY nsr DESC LIMIT 1`),
      lastOfChain: db.prepare(`SELECT ${TAIL_COLUMNS} FROM journal_marks WHERE chain = ? ORDER BY nsr DESC LIMIT 1`),
      // A chain whose every mark was archived (store/journal/journal-archive.ts) goes on from its last archived hash.
      archivedOfChain: db.prepare('SELECT hash FROM journal_archive_heads WHERE chain = ?'),
      // The line's fields and 32-byte hash, rebuilt on read (migration 14, store/mark-columns.ts).
      columns: db.prepare(MARK_COLUMNS_SQL),
      insert: db.prepare(INSERT_MARK_SQL),
      reserve: db.prepare('UPDATE journal_meta SET reserved_to = ? WHERE one = 1'),
      restored: db.prepare(
        'UPDATE journal_meta SET nsr_floor = @floor, reserved_to = MAX(reserved_to, @to) WHERE one = 1',
      ),
      floor: db.prepare('UPDATE journal_meta SET nsr_floor = MAX(nsr_floor, ?) WHERE one = 1'),
    };
  }

  private meta(): Meta {
    const m = this.stmts.meta.get() as Partial<Record<keyof Meta, unknown>> | undefined;
    if (!m) throw new Error('the evidence journal has no meta row (database not migrated?)');
    const { journal_id, reserved_to, nsr_floor } = m;
    if (typeof journal_id !== 'string' || typeof reserved_to !== 'number' || typeof nsr_floor !== 'number')
      throw new Error("the evidence journal's meta row is not readable");
    return { journal_id, reserved_to, nsr_floor };
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

  private nextOf(meta: Meta, last: { nsr: number } | null): number {
    return Math.max((last?.nsr ?? 0) + 1, meta.nsr_floor);
  }

  /** The journal's id, the NSR the next mark takes, and the reservation (status). */
  info(): { journalId: string; nextNsr: number; reservedTo: number } {
    const meta = this.meta();
    return { journalId: meta.journal_id, nextNsr: this.nextOf(meta, this.last()), reservedTo: meta.reserved_to };
  }

  /**
   * The NSR the next mark takes, reserved in the sidecar first when it is beyond the reservation
   * (with `ahead` more: a batch reserves once). Inside the caller's write transaction (begin it
   * IMMEDIATE when a read comes first).
   */
  reserveNsr(ahead = 0): number {
    let meta = this.meta();
    const last = this.last();
    let next = this.nextOf(meta, last);
    if (next + ahead <= meta.reserved_to) return next;
    if (this.unsettled === null) {
      this.reconcile(meta, next);
      meta = this.meta();
      next = this.nextOf(meta, last);
    }
    this.raise(meta, next + ahead);
    return next;
  }

  /** Appends the mark of a punch (or unresolved capture) with the NSR `reserveNsr()` gave, in the same transaction. */
  appendMark(m: MarkInput): { nsr: number; line: string } {
    const meta = this.meta();
    const last = this.last();
    const expected = this.nextOf(meta, last);
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
    this.stmts.floor.run(nsr + 1);
    return nsr;
  }

  /** After the transaction of a raise ended: the sidecar says what the database holds (step 3). */
  settle(): void {
    if (this.db.inTransaction) return;
    if (this.headDirty) this.headSoon();
    if (this.unsettled === null) return;
    this.unsettled = null;
    try {
      this.db.transaction(() => this.reconcile(this.meta(), this.nextOf(this.meta(), this.last()))).immediate();
    } catch (e) {
      // The next raise or open settles it; a punch already committed must not fail for it.
      this.warn(`the NSR sidecar could not be brought up to date: ${(e as Error).message}`);
    }
  }

  /**
   * At open, under the write lock: compares the sidecar with the database (a restore, a crash
   * mid-raise, a lost sidecar) and reserves a new block, so a copy of this database taken before
   * now is recognised if it is ever put back.
   */
  open(): Judgement {
    const judged = this.db
      .transaction(() => {
        const j = this.reconcile(this.meta(), this.nextOf(this.meta(), this.last()));
        const meta = this.meta();
        this.raise(meta, this.nextOf(meta, this.last()));
        return j;
      })
      .immediate();
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
    try {
      this.db
        .transaction(() => {
          this.reconcile(this.meta(), this.nextOf(this.meta(), this.last()));
          const meta = this.meta();
          this.write({
            journalId: meta.journal_id,
            reservedTo: meta.reserved_to,
            pending: null,
            lastGiven: this.nextOf(meta, this.last()) - 1,
          });
        })
        .immediate();
      this.unsettled = null;
    } catch (e) {
      this.warn(`the NSR sidecar could not record the clean stop: ${(e as Error).message}`);
    }
  }

  /** Brings the sidecar and the database into agreement; inside a write transaction. */
  private reconcile(meta: Meta, next: number): Judgement {
    if (this.sidecar === null) return { kind: 'consistent' };
    const copies = this.copies.read(meta.journal_id);
    const chosen = furthestCopy(copies, meta.journal_id);
    const j = judgeReservation(chosen.sidecar, {
      journalId: meta.journal_id,
      reservedTo: meta.reserved_to,
      nextNsr: next,
    });
    const fromDb: Sidecar = {
      journalId: meta.journal_id,
      reservedTo: meta.reserved_to,
      pending: null,
      lastGiven: null,
    };
    const read = { sidecar: chosen.sidecar };
    switch (j.kind) {
      case 'consistent':
        // A copy behind the others (lost, or put back with the data directory) is brought level.
        if (
          chosen.sidecar &&
          copies.some((c) => c.sidecar === null || highWater(c.sidecar) !== highWater(chosen.sidecar as Sidecar))
        )
          this.write(chosen.sidecar);
        break;
      case 'missing':
        if (next > 1)
          this.warn(
            'the NSR sidecar (journal-nsr.json) was missing: written again from the database; a restore before now cannot be recognised',
          );
        this.write(fromDb);
        break;
      case 'foreign':
        this.warn(
          `the NSR sidecar belongs to another journal (${j.sidecarJournalId}); this database's (${meta.journal_id}) wins and the sidecar is rewritten`,
        );
        this.write(fromDb);
        break;
      case 'behind':
        this.warn(
          `the NSR sidecar reserves less than the database (${read.sidecar?.reservedTo} < ${meta.reserved_to}): was it put back from a copy? The database wins`,
        );
        this.write(fromDb);
        break;
      case 'raise_committed':
      case 'raise_undone':
        this.write(fromDb);
        break;
      case 'restored': {
        this.stmts.restored.run({ floor: j.to + 1, to: j.to });
        this.lastRestore = { from: j.from, to: j.to, where: chosen.where };
        const why = `the database is older than the NSR reservation in ${chosen.where} (put back from a copy?): these NSRs may have been given and are never given again`;
        this.facts.append(j.from, this.o.now?.() ?? Date.now(), 'restored', restoredDetail(j.from, j.to, why));
        this.warn(
          `the database was put back from an older copy: NSRs ${j.from}-${j.to} may have been given since; the next NSR is ${j.to + 1}`,
        );
        this.write({ journalId: meta.journal_id, reservedTo: j.to, pending: null, lastGiven: null });
        break;
      }
    }
    return j;
  }

  /** Steps 1 and 2 of a raise: the sidecar first, then the database row (committed with the caller's transaction). */
  private raise(meta: Meta, needed: number): void {
    const to = nextReservation(meta.reserved_to, needed, this.block);
    const committed = this.unsettled ?? meta.reserved_to;
    this.write({ journalId: meta.journal_id, reservedTo: committed, pending: to, lastGiven: null });
    this.unsettled = committed;
    this.o.afterSidecarWrite?.();
    this.stmts.reserve.run(to);
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
      if (last !== null) this.copies.writeHead({ journalId: this.meta().journal_id, nsr: last.nsr, hash: last.hash });
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

  private write(s: Sidecar): void {
    this.copies.write(s);
  }

  private warn(message: string): void {
    try {
      this.o.warn?.(message);
    } catch {
      /* a warning must never fail a punch */
    }
  }
}
