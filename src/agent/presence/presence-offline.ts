/**
 * `timeclock presence` and `timeclock rollcall` beside the running terminal (issue 30): the
 * presence tables read and written directly (WAL), as `timeclock held` does with punches. The
 * running terminal publishes to the site's stream what is written here, and writes the roll
 * call's CSV and PDF at its end (here too, when no terminal runs).
 */
import { chooseTimeZone } from '../../domain/time/local-time.js';
import { storedTerminalIdOf, type Config } from '../../config.js';
import type { PresenceBoardView, RollCallView } from '../../contract.js';
import { openDatabase, type DurableDb } from '../../store/database.js';
import { PresenceTables } from '../../store/punches/presence-tables.js';
import { settingKeys } from '../../store/settings/setting-keys.js';
import { readSetting } from '../../store/settings/settings.js';
import { presenceSourcesSchema } from '../../contract.js';
import { endRollCall, markSafe, rollCallView, startRollCall, type MarkCode } from './presence-rollcall.js';
import { writeRollCallFiles } from './presence-rollcall-files.js';
import { boardView, namesOnce, NO_SOURCES } from './presence-view.js';
import { systemTimeZone } from '../host/runtime.js';
import { buildBoard, dayBefore } from '../../domain/punch/presence.js';
import { localDateTime } from '../../domain/time/local-time.js';

export class PresenceOffline {
  private readonly tables: PresenceTables;
  private readonly terminal: string;

  private constructor(
    private readonly db: DurableDb,
    private readonly config: Config,
  ) {
    this.tables = new PresenceTables(db);
    this.terminal = storedTerminalIdOf(config);
  }

  static open(config: Config): PresenceOffline {
    return new PresenceOffline(openDatabase(config.dataDir), config);
  }

  private zone(): string {
    return chooseTimeZone([readSetting(this.db, settingKeys.site)?.timezone, this.config.timezone, systemTimeZone()]);
  }

  /** The board from the presence table, with the sources the running terminal last recorded. */
  board(now: number): PresenceBoardView {
    const recorded = this.tables.sources();
    let sources: Omit<PresenceBoardView['sources'], 'unpublished'> = NO_SOURCES;
    try {
      const parsed =
        recorded === null ? null : presenceSourcesSchema.omit({ unpublished: true }).safeParse(JSON.parse(recorded));
      if (parsed?.success) sources = parsed.data;
    } catch {
      // Unreadable: said as no sources beyond this table.
    }
    return boardView(
      this.tables.people(),
      this.tables,
      { now, zone: this.zone() },
      { terminal: this.terminal, gate: this.config.presence.gate ?? this.terminal },
      sources,
    );
  }

  private cutOff(): boolean {
    return this.board(Date.now()).sources.stream.state !== 'live';
  }

  rollCall(): RollCallView | null {
    return rollCallView(this.tables, namesOnce(this.tables), this.cutOff());
  }

  startRollCall(now: number): RollCallView {
    const today = localDateTime(now, this.zone()).date;
    startRollCall(
      this.tables,
      buildBoard(this.tables.people(), today, now, namesOnce(this.tables), dayBefore(today)),
      this.terminal,
      now,
    );
    return this.rollCall() as RollCallView;
  }

  markSafe(who: string, now: number): MarkCode {
    return markSafe(this.tables, who, 'touch', this.terminal, now);
  }

  endRollCall(now: number): RollCallView | null {
    const id = endRollCall(this.tables, this.terminal, now);
    const view = this.rollCall();
    if (id === null || view === null) return view;
    const files = writeRollCallFiles(
      this.config.dataDir,
      view,
      this.zone(),
      readSetting(this.db, settingKeys.site)?.name ?? '',
    );
    this.tables.setFiles(id, JSON.stringify(files));
    return { ...view, files };
  }

  close(): void {
    this.db.close();
  }
}
