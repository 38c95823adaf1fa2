import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import { mirrorFileFor } from '../../src/store/journal/nsr-mirror.js';
import { journalRig, punchRange, type OpenJournal } from '../helpers/journal.js';

const rig = journalRig();
afterEach(() => rig.cleanup());

const restoredFacts = (j: OpenJournal) =>
  j.db.prepare("SELECT nsr, detail FROM journal_facts WHERE event = 'restored'").all() as {
    nsr: number;
    detail: string;
  }[];

/** A copy of the whole data directory, as tar or rsync would take it with the terminal stopped. */
function copyDir(from: string): string {
  const to = rig.dir();
  fs.cpSync(from, to, { recursive: true });
  return to;
}

function putBack(copy: string, into: string): void {
  for (const f of fs.readdirSync(into)) fs.rmSync(path.join(into, f), { recursive: true, force: true });
  fs.cpSync(copy, into, { recursive: true });
}

describe('a restore of the whole data directory (database and journal-nsr.json together)', () => {
  it('taken at NSR 4, put back 1,103 punches later: the next NSR follows every NSR ever given, and a fact names the gap', async () => {
    const data = rig.dir();
    const mirror = path.join(rig.dir(), 'nsr-mirror');
    const a = rig.open(data, { mirrorDir: mirror });
    expect(punchRange(a.outbox, 0, 4)).toEqual([1, 2, 3, 4]);
    a.journal.close();
    a.db.close();
    const copy = copyDir(data);

    const b = rig.open(data, { mirrorDir: mirror });
    const given = punchRange(b.outbox, 4, 4 + 1_103);
    expect(given.at(-1)).toBe(1_107);
    b.journal.close();
    b.db.close();

    putBack(copy, data);
    const c = rig.open(data, { mirrorDir: mirror });
    expect(c.judged).toMatchObject({ kind: 'restored', from: 5 });
    const to = c.judged.kind === 'restored' ? c.judged.to : 0;
    expect(to).toBeGreaterThanOrEqual(1_107);
    expect(c.warnings.join('\n')).toMatch(/put back from an older copy: NSRs 5-\d+ may have been given/);
    expect(restoredFacts(c)).toEqual([
      {
        nsr: 5,
        detail: expect.stringMatching(
          new RegExp(
            `^gap 5-${to}: the database is older than the NSR reservation in the NSR mirror ${mirror.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
          ),
        ),
      },
    ]);
    const [next] = punchRange(c.outbox, 2_000, 2_001);
    expect(next).toBe(to + 1);
    expect(next).toBeGreaterThan(1_107);
    expect(await verifyJournal(c.db)).toMatchObject({ ok: true, marks: 5, facts: 1 });
    c.journal.close();
    c.db.close();
    // Recognised once; the sidecar inside the data directory was brought level with the mirror.
    const again = rig.open(data, { mirrorDir: mirror });
    expect(again.judged.kind).toBe('consistent');
    expect(restoredFacts(again)).toHaveLength(1);
  });

  it('without a mirror the same restore goes unseen (what the docs say cannot be detected)', () => {
    const data = rig.dir();
    const a = rig.open(data);
    punchRange(a.outbox, 0, 4);
    a.journal.close();
    a.db.close();
    const copy = copyDir(data);
    const b = rig.open(data);
    punchRange(b.outbox, 4, 20);
    b.journal.close();
    b.db.close();
    putBack(copy, data);
    const c = rig.open(data);
    expect(c.judged.kind).toBe('consistent');
    expect(punchRange(c.outbox, 100, 101)).toEqual([5]);
  });

  it('a mirror that cannot be written is said once and never stops a punch', () => {
    const data = rig.dir();
    const blocker = path.join(rig.dir(), 'a-file');
    fs.writeFileSync(blocker, 'not a directory');
    const a = rig.open(data, { mirrorDir: path.join(blocker, 'mirror'), block: 2 });
    expect(punchRange(a.outbox, 0, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(a.warnings.filter((w) => /NSR mirror .* could not be written/.test(w))).toHaveLength(1);
  });

  it('the mirror file is per journal id and holds the reservation', () => {
    const data = rig.dir();
    const mirror = path.join(rig.dir(), 'm');
    const a = rig.open(data, { mirrorDir: mirror });
    punchRange(a.outbox, 0, 2);
    const id = a.journal.info().journalId;
    const saved = JSON.parse(fs.readFileSync(mirrorFileFor(mirror, id), 'utf8')) as {
      journalId: string;
      reservedTo: number;
    };
    expect(saved).toMatchObject({ journalId: id, reservedTo: a.journal.info().reservedTo });
    expect(fs.statSync(mirrorFileFor(mirror, id)).mode & 0o777).toBe(0o600);
  });
});
