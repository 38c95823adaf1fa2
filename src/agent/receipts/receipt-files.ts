/**
 * The PDF receipt of every punch, kept in the data directory (Portaria 671 Art. 80: available after
 * each punch and for at least 48 hours): `<dataDir>/receipts/<NSR>-<written ms>.pdf`, mode 0600,
 * with its detached CAdES signature `.p7s` beside it when `afd.signingKey` is set (the AFD's signer,
 * agent/exports/afd-signature.ts). Written after the punch's answer (never delaying it); pruned once older
 * than `receipt.keepHours` by the injected clock. A file that cannot be written is logged: the punch,
 * its mark and the receipt on screen stand without it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Config } from '../../config.js';
import type { PunchReceiptView } from '../../contract.js';
import type { Logger } from '../../log.js';
import { writePrivateFile } from '../../store/private-file.js';
import { loadAfdSigner, type AfdSigner } from '../exports/afd-signature.js';
import { receiptPdf } from './receipt-pdf.js';

export const RECEIPTS_DIR = 'receipts';
const PRUNE_EVERY_MS = 10 * 60_000;
const NAME = /^(\d{9})-(\d{1,15})\.pdf$/;

export type ReceiptFile = { pdf: string; p7s: string | null; writtenAt: number };
/** What the index of the folder holds: whether a signature is beside the PDF is looked at when it is asked for. */
type KeptPdf = Omit<ReceiptFile, 'p7s'>;

export type ReceiptFilesOptions = {
  dataDir: string;
  keepHours: number;
  afd: Pick<Config['afd'], 'signingKey' | 'signingKeyPassword'>;
  now: () => number;
  log: Pick<Logger, 'warn' | 'info'>;
};

export class ReceiptFiles {
  readonly dir: string;
  private signer: AfdSigner | null | undefined;
  private prunedAt = -Infinity;
  /** Receipts waiting for their files (keepSoon), written one per turn of the event loop. */
  private readonly queue: PunchReceiptView[] = [];
  private draining: Promise<void> | null = null;
  /**
   * The newest receipt kept of each NSR, from one listing of the directory, then kept up to date by
   * `keep` and made again by each `prune`. This process is the only writer (one agent a data
   * directory); listing the directory at every punch read 48 hours of names and ran a pattern over
   * each (290 KB of garbage and a synchronous readdir a punch, growing with the receipts kept).
   */
  private index: Map<number, KeptPdf> | null = null;

  constructor(private readonly o: ReceiptFilesOptions) {
    this.dir = path.join(o.dataDir, RECEIPTS_DIR);
  }

  /** The receipt of `nsr` kept here (the newest, should there be two), or null. */
  find(nsr: number): ReceiptFile | null {
    const index = (this.index ??= this.indexOf(this.names()));
    const hit = index.get(nsr);
    if (!hit) return null;
    // Removed by hand since the listing: not there.
    if (!fs.existsSync(hit.pdf)) {
      index.delete(nsr);
      return null;
    }
    return { pdf: hit.pdf, p7s: fs.existsSync(`${hit.pdf}.p7s`) ? `${hit.pdf}.p7s` : null, writtenAt: hit.writtenAt };
  }

  /** The newest PDF of each NSR among `names`. */
  private indexOf(names: readonly string[]): Map<number, KeptPdf> {
    const index = new Map<number, KeptPdf>();
    for (const name of names) {
      const m = NAME.exec(name);
      if (!m) continue;
      const nsr = Number(m[1]);
      const writtenAt = Number(m[2]);
      const best = index.get(nsr);
      if (best && best.writtenAt >= writtenAt) continue;
      index.set(nsr, { pdf: path.join(this.dir, name), writtenAt });
    }
    return index;
  }

  /**
   * Queues the receipt's files after a punch's answer. They are written one receipt per turn of the
   * event loop: each is two fsyncs and a signature, and a burst of punches (a shift change, a
   * backlog) written back to back in one turn held the loop for seconds, so the punches' own
   * requests timed out and were put in doubt (and the roster went ahead of them during the back-off).
   */
  keepSoon(r: PunchReceiptView): void {
    this.queue.push(r);
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  }

  /** Settles when the receipts queued so far have their files (tests, a clean stop). */
  async flushed(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    for (let r = this.queue.shift(); r !== undefined; r = this.queue.shift()) {
      await nextTurn();
      await this.keep(r);
    }
  }

  /** Writes the receipt's PDF (and signature) unless one is kept already; prunes old ones now and then. */
  async keep(r: PunchReceiptView): Promise<ReceiptFile | null> {
    const now = this.o.now();
    try {
      const existing = this.find(Number(r.nsr));
      if (existing) return existing;
      const pdf = path.join(this.dir, `${r.nsr}-${now}.pdf`);
      const bytes = receiptPdf(r);
      const signer = this.signerAt(now);
      // The signature first: a PDF is never there without the .p7s it was meant to have.
      if (signer) writePrivateFile(`${pdf}.p7s`, await signer.sign(bytes, new Date(now)));
      writePrivateFile(pdf, bytes);
      this.index?.set(Number(r.nsr), { pdf, writtenAt: now });
      return { pdf, p7s: signer ? `${pdf}.p7s` : null, writtenAt: now };
    } catch (e) {
      this.o.log.warn('the PDF receipt could not be written (the punch and its mark are kept)', {
        nsr: r.nsr,
        error: (e as Error).message,
      });
      return null;
    } finally {
      if (now - this.prunedAt >= PRUNE_EVERY_MS) this.prune(now);
    }
  }

  /**
   * The PDF of receipt `r` and its signature: the copy kept since the punch when there is one and
   * the time has not been corrected since, else made now (signed now when a key is set): a receipt
   * older than the files kept, or corrected after them, is still given.
   */
  async bytesOf(r: PunchReceiptView): Promise<{ pdf: Buffer; p7s: Buffer | null; kept: boolean }> {
    // A receipt corrected since the punch is made again: the copy kept at the punch states the old time.
    const kept = r.corrected ? null : this.find(Number(r.nsr));
    if (kept) return { pdf: fs.readFileSync(kept.pdf), p7s: kept.p7s ? fs.readFileSync(kept.p7s) : null, kept: true };
    const pdf = receiptPdf(r);
    const signer = this.signerAt(this.o.now());
    return { pdf, p7s: signer ? await signer.sign(pdf, new Date(this.o.now())) : null, kept: false };
  }

  /** Removes receipts older than keepHours; returns how many PDFs went. */
  prune(now = this.o.now()): number {
    this.prunedAt = now;
    const before = now - this.o.keepHours * 3_600_000;
    let removed = 0;
    const left: string[] = [];
    for (const name of this.names()) {
      const m = /^(\d{9})-(\d{1,15})\.pdf(\.p7s)?$/.exec(name);
      if (!m || Number(m[2]) >= before) {
        left.push(name);
        continue;
      }
      try {
        fs.rmSync(path.join(this.dir, name), { force: true });
        if (!m[3]) removed++;
      } catch (e) {
        left.push(name);
        this.o.log.warn('an old PDF receipt could not be removed', { file: name, error: (e as Error).message });
      }
    }
    this.index = this.indexOf(left);
    if (removed > 0) this.o.log.info('old PDF receipts removed', { removed, keepHours: this.o.keepHours });
    return removed;
  }

  /** The AFD's signer, loaded once; a key that cannot sign is said once and the receipts go unsigned. */
  private signerAt(now: number): AfdSigner | null {
    if (this.signer !== undefined) return this.signer;
    if (!this.o.afd.signingKey) return (this.signer = null);
    try {
      this.signer = loadAfdSigner(this.o.afd.signingKey, this.o.afd.signingKeyPassword, new Date(now));
    } catch (e) {
      this.o.log.warn('PDF receipts are not signed: afd.signingKey cannot sign', { error: (e as Error).message });
      this.signer = null;
    }
    return this.signer;
  }

  private names(): string[] {
    try {
      return fs.readdirSync(this.dir);
    } catch {
      return [];
    }
  }
}
