/**
 * The evidence journal read from another process (`timeclock receipt`, `journal verify`, `afd
 * export`): the data directory's database opened read-only, a snapshot beside a running terminal,
 * nothing taken over. The command line reaches the journal only through here.
 */
import { storedTerminalIdOf, type Config } from '../../config.js';
import type { PunchReceiptView } from '../../contract.js';
import { verifyAfd } from '../../domain/afd/verify.js';
import type { Logger } from '../../log.js';
import { openDatabase, type ReadOnlyDb } from '../../store/database.js';
import { sha256Latin1 } from '../../store/journal/journal-facts.js';
import { JournalReader, journalState } from '../../store/journal/journal-read.js';
import { EmployerCache } from '../../store/roster/employers.js';
import { verifyJournal, type JournalVerification } from '../../store/journal/journal-verify.js';
import { nsrMirrorDir } from './open-journal.js';
import { opensslSignatureCheck } from './archive-signature-check.js';
import { afdZone, exportAfd, type AfdExportRequest, type AfdExportResult } from '../exports/afd-export.js';
import { journalReceiptSource } from '../receipts/receipt-source.js';
import { ReceiptFiles } from '../receipts/receipt-files.js';
import { Receipts, receiptSettingsOf } from '../receipts/receipts.js';
import { hasTerminalData } from '../host/terminal-data.js';

export type { JournalVerification } from '../../store/journal/journal-verify.js';

/** An open, read-only look at the journal; close it when done. */
export class JournalSnapshot {
  constructor(
    private readonly db: ReadOnlyDb,
    private readonly config: Config,
    /** The journal's id and the next NSR it would give. */
    readonly journal: { journalId: string; nextNsr: number },
  ) {}

  /** Recomputes both chains; names the first record that does not match. */
  verify(): Promise<JournalVerification> {
    return verifyJournal(this.db, { mirrorDir: nsrMirrorDir(this.config), checkSignature: opensslSignatureCheck });
  }

  /** A punch's receipt by its NSR; null when there is none (what went wrong, if anything, goes to `log`). */
  receipt(nsr: number, log: Pick<Logger, 'warn'>): PunchReceiptView | null {
    return new Receipts({
      source: journalReceiptSource(this.db),
      settings: receiptSettingsOf(this.config, this.db),
      log,
    }).byNsr(nsr);
  }

  /**
   * A punch's PDF receipt and its signature by NSR (the copy kept since the punch, else made now); null: no such mark.
   */
  async receiptPdf(
    nsr: number,
    log: Pick<Logger, 'warn' | 'info'>,
  ): Promise<{ receipt: PunchReceiptView; pdf: Buffer; p7s: Buffer | null; kept: boolean } | null> {
    const receipt = this.receipt(nsr, log);
    if (!receipt) return null;
    const files = new ReceiptFiles({
      dataDir: this.config.dataDir,
      keepHours: this.config.receipt.keepHours,
      afd: this.config.afd,
      now: () => Date.now(),
      log,
    });
    return { receipt, ...(await files.bytesOf(receipt)) };
  }

  /** The marks of `from`..`to` as an AFD file (agent/exports/afd-export.ts), in the site's zone. */
  exportAfd(req: Omit<AfdExportRequest, 'zone' | 'terminal'>): Promise<AfdExportResult> {
    // The id the running terminal keeps in its data directory (read, never made here: read-only).
    const terminal = storedTerminalIdOf(this.config);
    return exportAfd(
      new JournalReader(this.db),
      this.config,
      { ...req, zone: afdZone(this.db, this.config), terminal },
      new EmployerCache(this.db),
    );
  }

  close(): void {
    this.db.close();
  }
}

/**
 * The journal of `config.dataDir`, read-only: 'no_data' when there is no database yet, 'no_journal'
 * when it has no journal (a read-only reader cannot migrate a file from an earlier version; the
 * agent does at its start).
 */
export function openJournalSnapshot(config: Config): JournalSnapshot | 'no_data' | 'no_journal' {
  if (!hasTerminalData(config.dataDir)) return 'no_data';
  const db = openDatabase(config.dataDir, { readonly: true });
  const journal = journalState(db);
  if (journal === null) {
    db.close();
    return 'no_journal';
  }
  return new JournalSnapshot(db, config, journal);
}

/** Checks an AFD's text (ours or another REP's) with domain/afd/verify.ts. */
export function verifyAfdText(latin1: string): ReturnType<typeof verifyAfd> {
  return verifyAfd(latin1, sha256Latin1);
}
