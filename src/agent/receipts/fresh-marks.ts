/**
 * The receipt of a punch just committed, from the values its capture sealed rather than read back from the file they
 * were written to a moment ago: the mark, the punch row and its facts were four reads, and the punch's answer took
 * 1.01 ms at the median with them, 0.76 without (issue 28 item 8). Each is used once, by the answer; any later look-up
 * reads the journal as before.
 */
import type { SealedPunch } from '../capture/capture.js';
import { receiptPunch } from './receipt-source.js';
import type { ReceiptEvidence, ReceiptSource } from './receipts.js';

/** Sealed punches not yet answered: a handful at most (the answer follows its commit on the same turn). */
const KEPT = 8;

export class FreshMarks {
  private readonly byNsr = new Map<number, ReceiptEvidence>();

  /** Capture's `sealed`: what the journal and the punch row now say of this NSR. */
  readonly remember = (s: SealedPunch): void => {
    this.byNsr.set(s.nsr, {
      line: s.line,
      punch: receiptPunch(s),
      // A mark sealed now has no re-timing yet: its facts are its capture's.
      correction: { adjustmentNsr: null, movedTo: null },
      chain: s.chain,
    });
    if (this.byNsr.size > KEPT) this.byNsr.delete(this.byNsr.keys().next().value as number);
  };

  /** A source that answers a fresh NSR once from memory and everything else from `stored`. */
  over(stored: ReceiptSource): ReceiptSource {
    return {
      byNsr: (nsr) => {
        const fresh = this.byNsr.get(nsr);
        if (fresh === undefined) return stored.byNsr(nsr);
        this.byNsr.delete(nsr);
        return fresh;
      },
    };
  }
}
