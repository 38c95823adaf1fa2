/**
 * Readers and writers of the store, by the handle each takes: every reader works on a connection
 * opened read-only (`timeclock doctor`, the journal's snapshot), every class that can write demands
 * a writable one. The `@ts-expect-error` lines fail `npm run typecheck` if a writer accepted a
 * read-only handle; what runs reads a real file through a read-only connection.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/store/roster/audit-log.js';
import { AuditMarks } from '../../src/store/journal/audit-marks.js';
import { openDatabase, type ReadOnlyDb } from '../../src/store/database.js';
import { EvidenceJournal } from '../../src/store/journal/evidence-journal.js';
import { Identities } from '../../src/store/roster/identities.js';
import { JournalFacts } from '../../src/store/journal/journal-facts.js';
import { JournalReader, journalState } from '../../src/store/journal/journal-read.js';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import { hasPin, Pins } from '../../src/store/roster/pins.js';
import { punchWriter } from '../../src/store/punches/punch-writer.js';
import { deletedEver, fileFigures } from '../../src/store/upkeep/retention.js';
import { Roster, rosterSize } from '../../src/store/roster/roster.js';
import { upsertEmployees } from '../../src/store/roster/roster-upsert.js';
import { settingKeys } from '../../src/store/settings/setting-keys.js';
import { readSetting } from '../../src/store/settings/settings.js';
import { UnresolvedPunches } from '../../src/store/punches/unresolved.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});

/** Never called: the compiler's half of the test. */
export function writersRefuseReaders(reader: ReadOnlyDb, audit: AuditLog): void {
  // @ts-expect-error the audit log appends
  new AuditLog(reader);
  // @ts-expect-error enrolling a badge writes
  new Identities(reader);
  // @ts-expect-error PINs and their failures are written
  new Pins({ db: reader, clock: { now: () => 0 }, policy: { maxFailures: 5, lockoutMs: 1_000 }, audit });
  // @ts-expect-error the evidence journal appends marks
  new EvidenceJournal(reader);
  // @ts-expect-error and facts
  new JournalFacts(reader);
  // @ts-expect-error unresolved captures are kept
  new UnresolvedPunches(reader);
  // @ts-expect-error a punch's state changes are written
  punchWriter(reader);
  // @ts-expect-error the roster is staged and swapped
  new Roster(reader);
  // @ts-expect-error a refresh writes its changes
  upsertEmployees(reader, []);
}

describe('readers on a read-only connection', () => {
  it('read a database the agent made', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const durable = openDatabase(t.dir);
    durable.close();
    const reader = openDatabase(t.dir, { readonly: true });
    cleanups.push(() => reader.close());
    expect(journalState(reader)?.nextNsr).toBeGreaterThan(0);
    expect(new JournalReader(reader).mark(1)).toBeNull();
    expect((await verifyJournal(reader)).ok).toBe(true);
    expect(new AuditMarks(reader)).toBeInstanceOf(AuditMarks);
    expect(readSetting(reader, settingKeys.rosterSync)).toBeNull();
    expect(rosterSize(reader)).toBe(0);
    expect(hasPin(reader, 'admin')).toBe(false);
    expect(fileFigures(reader).bytes).toBeGreaterThan(0);
    expect(deletedEver(reader)).toEqual({ punches: 0, journal: 0, audit: 0 });
  });
});
