/**
 * The roll call as the running terminal keeps it (issue 30 item 3): started from the board, marked
 * by touch or badge, ended with its CSV and PDF kept with the day's evidence; a terminal that learns
 * of a roll call late turns the badges it took since its start into marks.
 */
import type { RollCallView } from '../../contract.js';
import type { Clock } from '../../domain/time/clock.js';
import { localDateTime } from '../../domain/time/local-time.js';
import { buildBoard, dayBefore, type NameOf, type PersonPresence } from '../../domain/punch/presence.js';
import type { Logger } from '../../log.js';
import type { PresenceTables } from '../../store/punches/presence-tables.js';
import { endRollCall, markSafe, rollCallView, startRollCall, type MarkCode } from './presence-rollcall.js';
import { writeRollCallFiles } from './presence-rollcall-files.js';

export type RollCallDeskDeps = {
  tables: PresenceTables;
  terminal: string;
  dataDir: string;
  siteTimeZone: () => string;
  siteName: () => string;
  clock: Clock;
  log: Logger;
  nameOf: NameOf;
  /** The site's stream is not live: the roll call says it works on what this terminal has. */
  cutOff: () => boolean;
  /** Something the screens show changed; `publish`: a round should publish it now. */
  changed: (publish: boolean) => void;
};

export class RollCallDesk {
  constructor(private readonly d: RollCallDeskDeps) {}

  view(): RollCallView | null {
    return rollCallView(this.d.tables, this.d.nameOf, this.d.cutOff());
  }

  start(people: Iterable<PersonPresence>): RollCallView {
    const now = this.d.clock.now();
    const today = localDateTime(now, this.d.siteTimeZone()).date;
    startRollCall(this.d.tables, buildBoard(people, today, now, this.d.nameOf, dayBefore(today)), this.d.terminal, now);
    this.d.changed(true);
    return this.view() as RollCallView;
  }

  markSafe(who: string): MarkCode {
    const code = markSafe(this.d.tables, who, 'touch', this.d.terminal, this.d.clock.now());
    if (code === 'marked') this.d.changed(true);
    return code;
  }

  /** False: none was under way. */
  end(): boolean {
    if (endRollCall(this.d.tables, this.d.terminal, this.d.clock.now()) === null) return false;
    // Its files at once; the end reaches the other terminals with the next round.
    this.keepFiles();
    this.d.changed(false);
    return true;
  }

  /**
   * A roll call learnt only now: this terminal's punches since its start by people on its list were badges during
   * the roll call, so they are marks (at the punch's instant), shared like any other.
   */
  markLateBadges(punches: readonly { employeeKey: string; at: number }[]): void {
    for (const o of punches) markSafe(this.d.tables, o.employeeKey, 'badge', this.d.terminal, o.at);
  }

  /** An ended roll call's CSV and PDF, once (here or at whichever terminal learns of its end). */
  keepFiles(): void {
    const last = this.d.tables.currentRollCallId();
    if (!last || last.active || this.d.tables.rollCall(last.id)?.files != null) return;
    const view = this.view();
    if (!view) return;
    const files = writeRollCallFiles(this.d.dataDir, view, this.d.siteTimeZone(), this.d.siteName());
    this.d.tables.setFiles(last.id, JSON.stringify(files));
    this.d.log.info("roll call ended: its list is kept with the day's evidence", {
      csv: files.csv,
      pdf: files.pdf,
      listed: view.counts.listed,
      safe: view.counts.safe,
    });
    this.d.changed(false);
  }
}
