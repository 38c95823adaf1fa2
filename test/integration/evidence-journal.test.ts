import { afterEach, describe, expect, it } from 'vitest';
import { parseMark } from '../../src/domain/afd/mark.js';
import { openBookkeepingConnection } from '../../src/store/database.js';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import { Outbox } from '../../src/store/punches/outbox.js';
import { RetentionStore } from '../../src/store/upkeep/retention.js';
import { UnresolvedPunches } from '../../src/store/punches/unresolved.js';
import type { JournalOptions } from '../../src/store/journal/evidence-journal.js';
import {
  BASE,
  dropJournalTriggers,
  journalPunch,
  journalRig,
  punchRange,
  type OpenJournal,
} from '../helpers/journal.js';

const rig = journalRig();
afterEach(() => rig.cleanup());
const dir = () => rig.dir();
const open = (d: string, o?: JournalOptions): OpenJournal => rig.open(d, o);

describe('the evidence journal: one mark per punch, NSR 1, 2, 3…', () => {
  it('gives NSRs in order across restarts, each punch carrying its own, and the chain verifies', async () => {
    const d = dir();
    const a = open(d);
    expect(punchRange(a.outbox, 0, 3)).toEqual([1, 2, 3]);
    a.db.close();
    const b = open(d);
    expect(punchRange(b.outbox, 3, 5)).toEqual([4, 5]);
    expect(b.outbox.get(5)?.nsr).toBe(5);

    const mark = b.reader.markOfPunch(4);
    const parsed = parseMark(mark?.line ?? '');
    expect(parsed.ok && parsed.mark).toMatchObject({
      nsr: 4,
      cpf: '52998224725',
      collector: '04',
      online: true,
      markedAt: '2026-03-02T08:03:00-0300',
      recordedAt: '2026-03-02T08:03:00-0300',
    });
    expect(mark).toMatchObject({ nsr: 4, punchId: 4, localDate: '2026-03-02' });
    expect(await verifyJournal(b.db)).toMatchObject({ ok: true, marks: 5, facts: 0, firstProblem: null });
  });

  it('a punch whose transaction fails leaves no mark and its NSR goes to the next punch', async () => {
    const d = dir();
    const j = open(d);
    punchRange(j.outbox, 0, 2);
    j.db.exec(
      `CREATE TEMP TRIGGER fail_punch BEFORE INSERT ON punch_journal BEGIN SELECT RAISE(ABORT, 'disk trouble'); END`,
    );
    expect(() => j.outbox.insert(journalPunch(2))).toThrow(/disk trouble/);
    expect(j.db.prepare('SELECT COUNT(*) AS n FROM journal_marks').get()).toEqual({ n: 2 });
    expect(j.db.prepare('SELECT COUNT(*) AS n FROM punches').get()).toEqual({ n: 2 });
    j.db.exec('DROP TRIGGER fail_punch');
    expect(punchRange(j.outbox, 2, 3)).toEqual([3]);
    expect(await verifyJournal(j.db)).toMatchObject({ ok: true, marks: 3 });
  });

  it('a repeat consumes no NSR and answers with the earlier punch (and its NSR)', () => {
    const j = open(dir());
    punchRange(j.outbox, 0, 2);
    const again = j.outbox.insert(journalPunch(1));
    expect(again).toMatchObject({ inserted: false, existing: { id: 2, nsr: 2 } });
    expect(punchRange(j.outbox, 2, 3)).toEqual([3]);
  });

  it('an unknown code gets its mark with twelve zeros for the CPF; once matched, its punch keeps that NSR and a fact says who it was', async () => {
    const j = open(dir());
    punchRange(j.outbox, 0, 1);
    const unresolved = new UnresolvedPunches(j.db, j.journal);
    const kept = unresolved.add({ at: BASE + 3_600_000, mono: 0, bootId: 'b', anchored: true }, 'NEW-1', 'badge', {
      zone: 'America/Sao_Paulo',
    });
    expect(kept.nsr).toBe(2);
    const line = j.reader.mark(2)?.line ?? '';
    expect(line.slice(34, 46)).toBe('000000000000');
    // recorded in the journal as it was taken: on-line (the terminal is the REP-P, docs/evidence-journal.md)
    expect(line[72]).toBe('0');
    punchRange(j.outbox, 1, 2); // another punch meanwhile: NSR 3

    const row = unresolved.all()[0];
    if (!row) throw new Error('no unresolved punch');
    j.db
      .transaction(() => {
        const r = j.outbox.insert(journalPunch(60, { nsr: row.nsr, employeeKey: 'E-new' }));
        expect(r).toMatchObject({ inserted: true, nsr: 2 });
        unresolved.resolve(row, BASE + 7_200_000, 'employee E-new cpf 52998224725: punch 3');
      })
      .immediate();
    expect(j.reader.factsOf(2).map((f) => [f.event, f.detail])).toEqual([
      ['resolved', 'employee E-new cpf 52998224725: punch 3'],
    ]);
    expect(j.reader.mark(3)?.punchId).toBe(2);
    expect(await verifyJournal(j.db)).toMatchObject({ ok: true, marks: 3, facts: 1 });
  });
});

describe('facts: what happened to a punch after its mark', () => {
  it('delivered (with the service _id), rejected, held, released, confirmed, disputed, each in its chain; retries are not facts', async () => {
    const d = dir();
    const j = open(d);
    const lazy = openBookkeepingConnection(d);
    rig.defer(() => lazy.close());
    const outbox = new Outbox(j.db, lazy, j.journal);
    punchRange(outbox, 0, 4);
    const t = BASE + 60_000;
    outbox.markSending(1, t);
    outbox.markPending(1, t, t + 1_000, 'ECONNRESET');
    outbox.markSending(1, t + 1_000);
    outbox.markSent(1, t + 2_000, '65f0c0ffee0000000000abcd', 'created');
    outbox.markRejected(2, t, '422 employee inactive');
    outbox.retryRejected(2, t + 5_000);
    outbox.markHeld(3, t, 'forbidden', '403 not allowed', t + 1_000);
    outbox.releaseDueForbidden(t + 2_000); // a slow retry: not a fact
    outbox.markHeld(3, t + 3_000, 'forbidden', '403 not allowed', t + 4_000); // held again, same reason: not a fact
    outbox.decideHeld(3, t + 9_000, 'dispute', 'not at work that day');
    const pin = outbox.insert(journalPunch(9, { heldReason: 'pin_unverified' }));
    if (!pin.inserted) throw new Error('repeat');
    outbox.decideHeld(pin.id, t + 10_000, 'resend');

    const facts = (nsr: number) => j.reader.factsOf(nsr).map((f) => `${f.event}: ${f.detail}`);
    expect(facts(1)).toEqual(['delivered: 65f0c0ffee0000000000abcd']);
    expect(facts(2)).toEqual([
      'rejected: 422 employee inactive',
      'released: a rejected punch queued again by a person',
    ]);
    expect(facts(3)).toEqual(['held: forbidden: 403 not allowed', 'disputed: not at work that day']);
    expect(facts(4)).toEqual([]);
    expect(facts(pin.nsr)).toEqual(['held: pin_unverified', 'confirmed: by a person']);
    expect(await verifyJournal(j.db)).toMatchObject({ ok: true, marks: 5, facts: 7 });
  });

  it('the journal is append-only for our own code: an UPDATE or DELETE of a mark or fact fails', () => {
    const j = open(dir());
    punchRange(j.outbox, 0, 1);
    j.outbox.markRejected(1, BASE, 'no');
    expect(() => j.db.prepare(`UPDATE journal_marks SET cpf = cpf WHERE nsr = 1`).run()).toThrow(/append-only/);
    expect(() => j.db.prepare('DELETE FROM journal_marks').run()).toThrow(/append-only/);
    expect(() => j.db.prepare(`UPDATE journal_facts SET detail = 'yes'`).run()).toThrow(/append-only/);
    expect(() => j.db.prepare('DELETE FROM journal_facts').run()).toThrow(/append-only/);
  });
});

describe('verification names the first record that does not match', () => {
  async function tampered(edit: (j: OpenJournal) => void) {
    const j = open(dir());
    punchRange(j.outbox, 0, 6);
    for (let id = 1; id <= 6; id++) j.outbox.markSent(id, BASE + id, `remote-${id}`, 'created');
    expect((await verifyJournal(j.db)).ok).toBe(true);
    dropJournalTriggers(j.db); // as someone editing the file would
    edit(j);
    return verifyJournal(j.db, { chunk: 2 });
  }

  it('one changed byte of a mark', async () => {
    const v = await tampered((j) =>
      j.db
        .prepare(`UPDATE journal_marks SET verbatim = substr(line, 1, 25) || '9' || substr(line, 27) WHERE nsr = 4`)
        .run(),
    );
    expect(v.ok).toBe(false);
    expect(v.firstProblem).toMatchObject({ nsr: 4, message: expect.stringMatching(/hash does not match/) });
  });

  it('a deleted mark in the middle', async () => {
    const v = await tampered((j) => j.db.prepare('DELETE FROM journal_marks WHERE nsr = 3').run());
    expect(v.firstProblem).toMatchObject({ nsr: 4, message: expect.stringMatching(/NSRs 3-3 are missing/) });
  });

  it('two marks swapped', async () => {
    const v = await tampered((j) => {
      const [a, b] = [j.reader.mark(2)?.line, j.reader.mark(5)?.line];
      j.db.prepare('UPDATE journal_marks SET verbatim = ? WHERE nsr = ?').run(b, 2);
      j.db.prepare('UPDATE journal_marks SET verbatim = ? WHERE nsr = ?').run(a, 5);
    });
    expect(v.firstProblem).toMatchObject({ nsr: 2, message: expect.stringMatching(/says NSR 5/) });
  });

  it('a deleted fact', async () => {
    const v = await tampered((j) => j.db.prepare('DELETE FROM journal_facts WHERE seq = 2').run());
    expect(v.firstProblem).toMatchObject({ seq: 3, message: expect.stringMatching(/facts 2-2 are missing/) });
  });

  it('a changed fact, and a punch whose NSR lost its mark', async () => {
    const changed = await tampered((j) =>
      j.db.prepare(`UPDATE journal_facts SET detail = 'remote-x' WHERE seq = 5`).run(),
    );
    expect(changed.firstProblem).toMatchObject({ seq: 5, message: expect.stringMatching(/hash does not match/) });
    const orphan = await tampered((j) => j.db.prepare('UPDATE punches SET nsr = 99 WHERE id = 6').run());
    expect(orphan.firstProblem).toMatchObject({ nsr: 99, message: 'punch 6 has NSR 99, which has no mark (deleted?)' });
  });
});

describe('retention', () => {
  it('deletes delivered punches, never their marks or facts; the journal still answers for them', async () => {
    const j = open(dir());
    punchRange(j.outbox, 0, 5);
    for (let id = 1; id <= 5; id++) j.outbox.markSent(id, BASE + id, `remote-${id}`, 'created');
    expect(new RetentionStore(j.db).pruneDelivered(BASE + 10, 100)).toMatchObject({ punches: 5 });
    expect(j.db.prepare('SELECT COUNT(*) AS n FROM punches').get()).toEqual({ n: 0 });
    expect(
      j.db
        .prepare('SELECT (SELECT COUNT(*) FROM journal_marks) AS marks, (SELECT COUNT(*) FROM journal_facts) AS facts')
        .get(),
    ).toEqual({ marks: 5, facts: 5 });
    expect(j.reader.markOfPunch(3)?.nsr).toBe(3);
    expect(j.reader.factsOf(3).map((f) => f.detail)).toEqual(['remote-3']);
    expect(await verifyJournal(j.db)).toMatchObject({ ok: true, marks: 5, facts: 5 });
    expect(punchRange(j.outbox, 5, 6)).toEqual([6]);
  });

  it('marks of a date range come in NSR order, a page at a time', () => {
    const j = open(dir());
    punchRange(j.outbox, 0, 3); // 2026-03-02
    punchRange(j.outbox, 1_440, 1_443); // 2026-03-03
    punchRange(j.outbox, 2_880, 2_881); // 2026-03-04
    expect([...j.reader.iterateMarksInDates('2026-03-03', '2026-03-04', 2)].map((m) => m.nsr)).toEqual([4, 5, 6, 7]);
    expect(j.reader.marksInDates('2026-03-02', '2026-03-03', 2, 3).map((m) => m.nsr)).toEqual([3, 4, 5]);
    expect(j.reader.marksInDates('2026-03-05', '2026-03-09')).toEqual([]);
  });
});
