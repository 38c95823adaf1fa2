import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MARK_BODY_LENGTH, sealMark, parseMark } from '../../src/domain/afd/mark.js';
import { sha256Latin1 } from '../../src/store/journal/journal-facts.js';
import { JOURNAL_HEAD_FILE, readHead } from '../../src/store/journal/journal-nsr.js';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import { mirrorHeadFileFor } from '../../src/store/journal/nsr-mirror.js';
import { dropJournalTriggers, journalRig, punchRange, type OpenJournal } from '../helpers/journal.js';

const rig = journalRig();
afterEach(() => rig.cleanup());

/** What anyone can do with the public rule: change fields 1-7 of NSR `nsr` and hash it again after its predecessor. */
function rehash(j: OpenJournal, nsr: number, change: (body: string) => string): void {
  const prev = j.reader.mark(nsr - 1)?.line.slice(MARK_BODY_LENGTH) ?? '';
  const old = parseMark(j.reader.mark(nsr)?.line ?? '');
  if (!old.ok) throw new Error('no such mark');
  const body = change(old.mark.line.slice(0, MARK_BODY_LENGTH));
  const line = body + sha256Latin1(body + prev);
  j.db.prepare('UPDATE journal_marks SET verbatim = ? WHERE nsr = ?').run(line, nsr);
}

async function journalOf(n: number, mirrorDir?: string) {
  const d = rig.dir();
  const j = rig.open(d, mirrorDir ? { mirrorDir } : {});
  punchRange(j.outbox, 0, n);
  expect(await verifyJournal(j.db, { mirrorDir: mirrorDir ?? null })).toMatchObject({ ok: true, marks: n });
  dropJournalTriggers(j.db); // as someone editing the file would
  return { d, j };
}

describe('journal verify: the journal agrees with the punches and with its head outside the database', () => {
  it('a rewritten tail (the last mark moved by an hour and hashed again) is reported: its punch row holds the original time', async () => {
    const { j } = await journalOf(3);
    rehash(j, 3, (b) => b.slice(0, 22) + '9' + b.slice(23)); // 08:02 -> 09:02 in the mark's hour
    const v = await verifyJournal(j.db);
    expect(v.ok).toBe(false);
    expect(v.firstProblem).toMatchObject({
      nsr: 3,
      message: expect.stringMatching(
        /^NSR 3: the mark says 2026-03-02 09:02, its punch \(row 3\) 2026-03-02 08:02, and no fact explains it/,
      ),
    });
  });

  it('the same rewrite after the punch row is gone (retention) is caught by the head recorded beside the database', async () => {
    const { d, j } = await journalOf(3);
    expect(readHead(path.join(d, JOURNAL_HEAD_FILE))).toMatchObject({
      nsr: 3,
      hash: j.reader.mark(3)?.line.slice(MARK_BODY_LENGTH),
    });
    j.db.prepare('DELETE FROM punch_journal WHERE punch_id IN (SELECT id FROM punches WHERE nsr = 3)').run();
    j.db.prepare('DELETE FROM punches WHERE nsr = 3').run();
    rehash(j, 3, (b) => b.slice(0, 22) + '9' + b.slice(23));
    const v = await verifyJournal(j.db);
    expect(v.firstProblem).toMatchObject({
      nsr: 3,
      message: expect.stringMatching(/NSR 3: its hash is not the one journal-head\.json recorded outside the database/),
    });
  });

  it('a tail deleted with its punches is reported against the head, also when journal-head.json beside it is deleted too (the mirror keeps one)', async () => {
    const mirror = path.join(rig.dir(), 'mirror');
    const { d, j } = await journalOf(4, mirror);
    const id = j.journal.info().journalId;
    expect(readHead(mirrorHeadFileFor(mirror, id))).toMatchObject({ nsr: 4 });
    j.db.prepare('DELETE FROM journal_facts WHERE nsr >= 3').run();
    j.db.prepare('DELETE FROM punch_journal WHERE punch_id IN (SELECT id FROM punches WHERE nsr >= 3)').run();
    j.db.prepare('DELETE FROM punches WHERE nsr >= 3').run();
    j.db.prepare('DELETE FROM journal_marks WHERE nsr >= 3').run();
    fs.rmSync(path.join(d, JOURNAL_HEAD_FILE));
    expect(await verifyJournal(j.db)).toMatchObject({ ok: true }); // what the database alone can tell
    const v = await verifyJournal(j.db, { mirrorDir: mirror });
    expect(v.firstProblem).toMatchObject({
      nsr: 4,
      message: expect.stringMatching(/^the journal ends at NSR 2, but the mirror .* names NSR 4/),
    });
  });

  it("a mark whose CPF is not its employee's is reported", async () => {
    const { j } = await journalOf(2);
    j.db
      .prepare(
        "INSERT INTO roster_employees (id, external_id, full_name, cpf) VALUES ('E1', 'X1', 'Employee 1', '529.982.247-25')",
      )
      .run();
    expect((await verifyJournal(j.db)).ok).toBe(true);
    j.db.prepare("UPDATE roster_employees SET cpf = '111.444.777-35' WHERE id = 'E1'").run();
    const v = await verifyJournal(j.db);
    expect(v.firstProblem).toMatchObject({
      nsr: 2,
      message: expect.stringMatching(/NSR 2: the mark's CPF is not the CPF of its punch's employee \(E1, row 2\)/),
    });
  });

  it('a sealed mark still verifies as before (the head and the rows agree)', async () => {
    const { j } = await journalOf(5);
    const m = parseMark(j.reader.mark(5)?.line ?? '');
    expect(
      m.ok && sealMark({ ...m.mark }, j.reader.mark(4)?.line.slice(MARK_BODY_LENGTH) ?? '', sha256Latin1).line,
    ).toBe(j.reader.mark(5)?.line);
  });
});
