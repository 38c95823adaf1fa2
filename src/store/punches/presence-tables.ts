/**
 * The presence tables (migration 15): each person's last known punch, what is still to be
 * published to the site's stream, where the stream was read up to, and the roll calls with their
 * marks. Used by the running terminal and by `timeclock presence` / `timeclock rollcall` beside it.
 */
import type { PersonPresence, PresenceSource } from '../../domain/punch/presence.js';
import type { PunchDirection } from '../../domain/time/day-sheet.js';
import type { Db, WritableDb } from '../database.js';

type PersonRow = {
  employee_key: string;
  external_id: string | null;
  event_id: string;
  at: number;
  local_date: string;
  local_time: string;
  direction: PunchDirection;
  terminal: string;
  gate: string;
  source: PresenceSource;
  entry_at: number | null;
  entry_gate: string | null;
};

const personOf = (r: PersonRow): PersonPresence => ({
  id: r.event_id,
  employeeKey: r.employee_key,
  employeeExternalId: r.external_id,
  at: r.at,
  localDate: r.local_date,
  localTime: r.local_time,
  direction: r.direction,
  terminal: r.terminal,
  gate: r.gate,
  source: r.source,
  entryAt: r.entry_at,
  entryGate: r.entry_gate,
});

export type OutboxEntry = { id: number; event: string; createdAt: number };

export type RollCallRow = {
  id: string;
  startedAt: number;
  startedBy: string;
  localDate: string;
  list: string;
  endedAt: number | null;
  files: string | null;
};
export type RollCallMark = { employeeKey: string; at: number; how: 'touch' | 'badge'; terminal: string };

/** Reads of the presence tables (a read-only connection will do). */
export class PresenceReads {
  protected readonly reads;

  constructor(db: Db) {
    this.reads = {
      people: db.prepare<[], PersonRow>('SELECT * FROM presence_people'),
      person: db.prepare<[string], PersonRow>('SELECT * FROM presence_people WHERE employee_key = ?'),
      meta: db.prepare<[], { stream_key: string | null; stream_id: string | null; sources: string | null }>(
        'SELECT stream_key, stream_id, sources FROM presence_meta WHERE one = 1',
      ),
      outbox: db.prepare<[number], { id: number; event: string; created_at: number }>(
        'SELECT id, event, created_at FROM presence_outbox ORDER BY id LIMIT ?',
      ),
      outboxSize: db.prepare<[], { n: number; oldest: number | null }>(
        'SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM presence_outbox',
      ),
      rollCall: db.prepare<
        [string],
        {
          id: string;
          started_at: number;
          started_by: string;
          local_date: string;
          list: string;
          ended_at: number | null;
          files: string | null;
        }
      >('SELECT * FROM roll_calls WHERE id = ?'),
      activeRollCall: db.prepare<[], { id: string }>(
        'SELECT id FROM roll_calls WHERE ended_at IS NULL ORDER BY started_at DESC LIMIT 1',
      ),
      lastRollCall: db.prepare<[], { id: string }>('SELECT id FROM roll_calls ORDER BY started_at DESC LIMIT 1'),
      // The roster's name and the employer's (or the payment source's id while its name is not read).
      name: db.prepare<[string], { name: string; employer: string | null }>(
        `SELECT r.full_name AS name, COALESCE(e.name, r.payment_source) AS employer
           FROM roster_employees r LEFT JOIN employers e ON e.id = r.payment_source WHERE r.id = ?`,
      ),
      // Only the people whose last punch is an entry: the board names no one else (on site, or an entry of
      // yesterday without an exit). The roster may hold 100,000 people; the board a few thousand.
      names: db.prepare<[], { id: string; name: string; employer: string | null }>(
        `SELECT r.id, r.full_name AS name, COALESCE(e.name, r.payment_source) AS employer
           FROM presence_people p JOIN roster_employees r ON r.id = p.employee_key
           LEFT JOIN employers e ON e.id = r.payment_source WHERE p.direction = 'entry'`,
      ),
      // A page of the same, in the people's key order (refreshed in the background a page at a time).
      namesPage: db.prepare<[string, number], { id: string; name: string; employer: string | null }>(
        `SELECT r.id, r.full_name AS name, COALESCE(e.name, r.payment_source) AS employer
           FROM presence_people p JOIN roster_employees r ON r.id = p.employee_key
           LEFT JOIN employers e ON e.id = r.payment_source
          WHERE p.direction = 'entry' AND p.employee_key > ? ORDER BY p.employee_key LIMIT ?`,
      ),
      marks: db.prepare<[string], { employee_key: string; at: number; how: 'touch' | 'badge'; terminal: string }>(
        'SELECT employee_key, at, how, terminal FROM roll_call_marks WHERE roll_call_id = ? ORDER BY at',
      ),
    };
  }

  people(): PersonPresence[] {
    return this.reads.people.all().map(personOf);
  }

  person(employeeKey: string): PersonPresence | undefined {
    const r = this.reads.person.get(employeeKey);
    return r ? personOf(r) : undefined;
  }

  /** What the roster says of a person (null: not in this terminal's roster). */
  nameOf(employeeKey: string): { name: string | null; employer: string | null } | null {
    return this.reads.name.get(employeeKey) ?? null;
  }

  /** The names and employers of the people the board shows (last punch an entry), in one read. */
  names(): Map<string, { name: string | null; employer: string | null }> {
    return new Map(this.reads.names.all().map((r) => [r.id, { name: r.name, employer: r.employer }]));
  }

  /** The same, after `afterId` (key order), at most `limit`. */
  namesPage(afterId: string, limit: number): { id: string; name: string | null; employer: string | null }[] {
    return this.reads.namesPage.all(afterId, limit);
  }

  streamPosition(): { key: string | null; id: string | null } {
    const r = this.reads.meta.get();
    return { key: r?.stream_key ?? null, id: r?.stream_id ?? null };
  }

  /** The sources the running terminal last recorded (JSON), null: none yet. */
  sources(): string | null {
    return this.reads.meta.get()?.sources ?? null;
  }

  pending(limit: number): OutboxEntry[] {
    return this.reads.outbox.all(limit).map((r) => ({ id: r.id, event: r.event, createdAt: r.created_at }));
  }

  pendingCount(): { count: number; oldest: number | null } {
    const r = this.reads.outboxSize.get();
    return { count: r?.n ?? 0, oldest: r?.oldest ?? null };
  }

  rollCall(id: string): RollCallRow | null {
    const r = this.reads.rollCall.get(id);
    return r
      ? {
          id: r.id,
          startedAt: r.started_at,
          startedBy: r.started_by,
          localDate: r.local_date,
          list: r.list,
          endedAt: r.ended_at,
          files: r.files,
        }
      : null;
  }

  /** The roll call under way, else the last one (null: none ever). */
  currentRollCallId(): { id: string; active: boolean } | null {
    const active = this.reads.activeRollCall.get();
    if (active) return { id: active.id, active: true };
    const last = this.reads.lastRollCall.get();
    return last ? { id: last.id, active: false } : null;
  }

  marks(rollCallId: string): RollCallMark[] {
    return this.reads.marks
      .all(rollCallId)
      .map((r) => ({ employeeKey: r.employee_key, at: r.at, how: r.how, terminal: r.terminal }));
  }
}

/** The presence tables, written by the terminal (bookkeeping connection: none of this is evidence). */
export class PresenceTables extends PresenceReads {
  private readonly writes;

  constructor(private readonly db: WritableDb) {
    super(db);
    this.writes = {
      upsert: db.prepare(
        `INSERT INTO presence_people (employee_key, external_id, event_id, at, local_date, local_time, direction, terminal, gate, source, entry_at, entry_gate)
         VALUES (@employeeKey, @employeeExternalId, @id, @at, @localDate, @localTime, @direction, @terminal, @gate, @source, @entryAt, @entryGate)
         ON CONFLICT (employee_key) DO UPDATE SET external_id = excluded.external_id, event_id = excluded.event_id, at = excluded.at,
           local_date = excluded.local_date, local_time = excluded.local_time, direction = excluded.direction, terminal = excluded.terminal,
           gate = excluded.gate, source = excluded.source, entry_at = excluded.entry_at, entry_gate = excluded.entry_gate`,
      ),
      prune: db.prepare('DELETE FROM presence_people WHERE local_date < ?'),
      enqueue: db.prepare<[string, number]>('INSERT INTO presence_outbox (event, created_at) VALUES (?, ?)'),
      published: db.prepare<[number]>('DELETE FROM presence_outbox WHERE id <= ?'),
      position: db.prepare<[string, string]>(
        'INSERT INTO presence_meta (one, stream_key, stream_id) VALUES (1, ?, ?) ON CONFLICT (one) DO UPDATE SET stream_key = excluded.stream_key, stream_id = excluded.stream_id',
      ),
      sources: db.prepare<[string]>(
        'INSERT INTO presence_meta (one, sources) VALUES (1, ?) ON CONFLICT (one) DO UPDATE SET sources = excluded.sources',
      ),
      startRollCall: db.prepare<[string, number, string, string, string]>(
        'INSERT INTO roll_calls (id, started_at, started_by, local_date, list) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
      ),
      endRollCall: db.prepare<[number, string]>('UPDATE roll_calls SET ended_at = ? WHERE id = ? AND ended_at IS NULL'),
      files: db.prepare<[string, string]>('UPDATE roll_calls SET files = ? WHERE id = ?'),
      mark: db.prepare<[string, string, number, string, string]>(
        'INSERT INTO roll_call_marks (roll_call_id, employee_key, at, how, terminal) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ),
    };
  }

  save(p: PersonPresence): void {
    this.writes.upsert.run(p);
  }

  /** Many people in one transaction (the stream's batches). */
  saveAll(people: readonly PersonPresence[]): void {
    this.db.transaction(() => {
      for (const p of people) this.writes.upsert.run(p);
    })();
  }

  /** Forgets punches dated before `date` (the board shows yesterday's entries at most). */
  prune(beforeDate: string): number {
    return this.writes.prune.run(beforeDate).changes;
  }

  enqueue(event: string, now: number): void {
    this.writes.enqueue.run(event, now);
  }

  /** Entries through `id` reached the stream. */
  published(id: number): void {
    this.writes.published.run(id);
  }

  setStreamPosition(key: string, id: string): void {
    this.writes.position.run(key, id);
  }

  setSources(json: string): void {
    this.writes.sources.run(json);
  }

  /** False when a roll call with this id exists already (a second delivery of its start). */
  startRollCall(r: Omit<RollCallRow, 'endedAt' | 'files'>): boolean {
    return this.writes.startRollCall.run(r.id, r.startedAt, r.startedBy, r.localDate, r.list).changes === 1;
  }

  endRollCall(id: string, at: number): boolean {
    return this.writes.endRollCall.run(at, id).changes === 1;
  }

  setFiles(id: string, files: string): void {
    this.writes.files.run(files, id);
  }

  /** False when the person was marked already (the first mark stands). */
  mark(rollCallId: string, m: RollCallMark): boolean {
    return this.writes.mark.run(rollCallId, m.employeeKey, m.at, m.how, m.terminal).changes === 1;
  }
}
