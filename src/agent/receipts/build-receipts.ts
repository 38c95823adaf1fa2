/**
 * The receipts as build-agent.ts wires them: read from the journal, with the site's settings read at each
 * receipt, and each punch's PDF kept in the data directory for its hours (Art. 80). Apart from the
 * composition root so that it stays a list of parts.
 */
import type { Config } from '../../config.js';
import type { DurableDb } from '../../store/database.js';
import type { Runtime } from '../host/runtime.js';
import type { FreshMarks } from './fresh-marks.js';
import { ReceiptFiles } from './receipt-files.js';
import { journalReceiptSource } from './receipt-source.js';
import { liveReceiptSettings, Receipts } from './receipts.js';

/** `fresh`: the punches capture just sealed, whose receipts need no read of the journal. */
export function buildReceipts(config: Config, rt: Runtime, db: DurableDb, fresh?: FreshMarks): Receipts {
  const stored = journalReceiptSource(db);
  return new Receipts({
    source: fresh ? fresh.over(stored) : stored,
    settings: liveReceiptSettings(config, db),
    log: rt.log,
    files: new ReceiptFiles({
      dataDir: config.dataDir,
      keepHours: config.receipt.keepHours,
      afd: config.afd,
      now: () => rt.clock.now(),
      log: rt.log,
    }),
  });
}
