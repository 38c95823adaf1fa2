/**
 * The agent's data directory opened, and closed, in order: the lock, the terminal's id, the durable and
 * bookkeeping connections, the status recorder and event hub every part reports to, the evidence journal and
 * the stores on it. Apart from build-agent.ts, which builds the rest on these; `close()` is the last step of
 * the agent's stop.
 */
import { terminalIdOf, type Config } from '../config.js';
import {
  ensureDataDir,
  openBookkeepingConnection,
  openDatabase,
  type BookkeepingDb,
  type DurableDb,
} from '../store/database.js';
import { Outbox } from '../store/punches/outbox.js';
import { Roster } from '../store/roster/roster.js';
import { RateSlots } from '../store/settings/rate-slots.js';
import { AutoCheckpointHold } from '../store/upkeep/auto-checkpoint-hold.js';
import { checkpointInWorker } from '../store/upkeep/checkpoint-worker.js';
import { lockDataDir } from '../store/upkeep/lock.js';
import { AgentEventHub } from './facade/status-events.js';
import type { BuildOptions, Runtime } from './host/runtime.js';
import { openJournal } from './journal/open-journal.js';
import { StatusRecorder } from './status/status-recorder.js';

export function openStores(config: Config, rt: Runtime, opts: BuildOptions) {
  const lock = lockDataDir(ensureDataDir(config.dataDir));
  // Made in the data directory at the first start (config-terminal-id.ts), unless configured.
  const terminalId = terminalIdOf(config);
  let db: DurableDb;
  let bookkeeping: BookkeepingDb;
  try {
    db = openDatabase(config.dataDir);
    bookkeeping = openBookkeepingConnection(config.dataDir);
  } catch (e) {
    lock.release();
    throw e;
  }
  // Status first: the parts below report to these as they are built and run; the agent receives them.
  const events = new AgentEventHub(rt.log);
  // On the bookkeeping connection: status a power cut may undo (a roster sync writes its progress at every page; on
  // the durable connection each was an fsync, 20-26 ms of the loop when the disk is busy with the sync).
  const recorder = new StatusRecorder({
    db: bookkeeping,
    clock: rt.clock,
    log: rt.log,
    changed: () => events.statusSoon(),
  });
  const journal = openJournal(db, config, rt, opts.fleetNsr ?? null);
  const outbox = new Outbox(db, bookkeeping, journal);
  // Retired rosters are freed with the log checkpointed off the loop (store/roster/roster.ts, reclaim).
  // While a worker checkpoints, no commit of the agent's does so on the loop (store/upkeep/auto-checkpoint-hold.ts).
  const hold = new AutoCheckpointHold([db, bookkeeping]);
  const checkpoints = () => checkpointInWorker(config.dataDir, hold);
  const roster = new Roster(db, { checkpoints });
  // A roster stored by a version without summaries: computed once here, then at each swap.
  roster.ensureSummary();
  // Old rosters a stop or a crash left to free: freed in the background, a step per turn.
  void roster.reclaim();
  const rateSlots = new RateSlots(bookkeeping);
  /** After every other part stopped: the connections, the journal's copies and the lock let go. */
  const close = async (): Promise<void> => {
    bookkeeping.close();
    // A clean stop: the sidecar learns the last NSR given (a copy taken during this run is then recognised).
    journal.close();
    await journal.closeOutside();
    // Its checkpoint workers gone first: one still starting would open the closed database again.
    await roster.close();
    db.close();
    lock.release();
  };
  return { terminalId, db, bookkeeping, events, recorder, journal, outbox, roster, rateSlots, checkpoints, close };
}
