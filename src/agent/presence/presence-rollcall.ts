/**
 * The evacuation roll call (issue 30 item 3): the board's people on site frozen at its start, each
 * marked safe by a touch on the admin screen or by badging at any terminal of the site; the marks
 * travel through the site's stream, so every terminal counts the same. Rows in the database only
 * (store/punches/presence-tables.ts): `timeclock rollcall` works beside a running terminal, which
 * publishes what the command line wrote.
 */
import { randomBytes } from 'node:crypto';
import type { PresenceBoard } from '../../domain/punch/presence.js';
import type { RollCallView } from '../../contract.js';
import type { PresenceTables, RollCallMark } from '../../store/punches/presence-tables.js';
import type { ListedPerson, StreamEntry } from '../../sync/fleet/presence-stream.js';

export type MarkCode = 'marked' | 'already' | 'not_listed' | 'no_roll_call';

/** Starts a roll call of `board`'s people on site (an active one is answered instead); its id. */
export function startRollCall(tables: PresenceTables, board: PresenceBoard, terminal: string, now: number): string {
  const current = tables.currentRollCallId();
  if (current?.active) return current.id;
  const id = `${now.toString(36)}-${randomBytes(4).toString('hex')}`;
  const list: ListedPerson[] = board.onSite.map((p) => ({
    employeeKey: p.employeeKey,
    employeeExternalId: p.employee_external_id,
    gate: p.gate,
    entryAt: p.entryAt,
  }));
  tables.startRollCall({ id, startedAt: now, startedBy: terminal, localDate: board.date, list: JSON.stringify(list) });
  tables.enqueue(
    JSON.stringify({ t: 'rollcall', id, at: now, by: terminal, date: board.date, list } satisfies StreamEntry),
    now,
  );
  return id;
}

function listOf(json: string): ListedPerson[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? (v as ListedPerson[]) : [];
  } catch {
    return [];
  }
}

/** Marks a person safe in the active roll call (`employeeKey` or their external id). */
export function markSafe(
  tables: PresenceTables,
  who: string,
  how: RollCallMark['how'],
  terminal: string,
  now: number,
): MarkCode {
  const current = tables.currentRollCallId();
  if (!current?.active) return 'no_roll_call';
  const row = tables.rollCall(current.id);
  const person = row ? listOf(row.list).find((p) => p.employeeKey === who || p.employeeExternalId === who) : undefined;
  if (!person) return 'not_listed';
  if (!tables.mark(current.id, { employeeKey: person.employeeKey, at: now, how, terminal })) return 'already';
  tables.enqueue(
    JSON.stringify({
      t: 'safe',
      rollCall: current.id,
      employeeKey: person.employeeKey,
      at: now,
      how,
      terminal,
    } satisfies StreamEntry),
    now,
  );
  return 'marked';
}

/** Ends the active roll call; its id (null: none was under way). */
export function endRollCall(tables: PresenceTables, terminal: string, now: number): string | null {
  const current = tables.currentRollCallId();
  if (!current?.active) return null;
  tables.endRollCall(current.id, now);
  tables.enqueue(JSON.stringify({ t: 'end', rollCall: current.id, at: now, terminal } satisfies StreamEntry), now);
  return current.id;
}

/** A roll call entry from the stream (another terminal's start, mark or end); true when it changed something. */
export function applyRollCallEntry(tables: PresenceTables, e: StreamEntry): boolean {
  switch (e.t) {
    case 'rollcall':
      return tables.startRollCall({
        id: e.id,
        startedAt: e.at,
        startedBy: e.by,
        localDate: e.date,
        list: JSON.stringify(e.list),
      });
    case 'safe':
      return (
        tables.rollCall(e.rollCall) !== null &&
        tables.mark(e.rollCall, { employeeKey: e.employeeKey, at: e.at, how: e.how, terminal: e.terminal })
      );
    case 'end':
      return tables.endRollCall(e.rollCall, e.at);
    default:
      return false;
  }
}

export type NameLookup = (employeeKey: string) => { name: string | null; employer: string | null } | null;

/** The current (or last) roll call as the screen and the command line show it; null: none ever. */
export function rollCallView(tables: PresenceTables, nameOf: NameLookup, cutOff: boolean): RollCallView | null {
  const current = tables.currentRollCallId();
  const row = current ? tables.rollCall(current.id) : null;
  if (!row) return null;
  const marks = new Map(tables.marks(row.id).map((m) => [m.employeeKey, m]));
  const people = listOf(row.list).map((p) => {
    const m = marks.get(p.employeeKey);
    const known = nameOf(p.employeeKey);
    return {
      employeeKey: p.employeeKey,
      employee_external_id: p.employeeExternalId,
      name: known?.name ?? null,
      employer: known?.employer ?? null,
      gate: p.gate,
      safe: m !== undefined,
      markedAt: m?.at ?? null,
      how: m?.how ?? null,
      terminal: m?.terminal ?? null,
    };
  });
  // Missing first: the warden looks for them.
  people.sort(
    (a, b) => Number(a.safe) - Number(b.safe) || (a.name ?? a.employeeKey).localeCompare(b.name ?? b.employeeKey),
  );
  const safe = people.filter((p) => p.safe).length;
  const files = row.files === null ? null : (JSON.parse(row.files) as { csv: string; pdf: string });
  return {
    id: row.id,
    active: row.endedAt === null,
    startedAt: row.startedAt,
    startedBy: row.startedBy,
    endedAt: row.endedAt,
    date: row.localDate,
    people,
    counts: { listed: people.length, safe, missing: people.length - safe },
    cutOff,
    files,
  };
}
