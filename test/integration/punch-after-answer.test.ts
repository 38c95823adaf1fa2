/**
 * What a punch leaves to after its answer (issue 28 item 8): the uploader's wake-up and the journal's head outside the
 * database. Both still happen: the punch leaves at once (not at the uploader's next look, 30 s away), and the head
 * names the last mark a moment later and at the stop.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MARK_BODY_LENGTH } from '../../src/domain/afd/mark.js';
import { DB_FILE_NAME } from '../../src/store/database.js';
import { JournalReader } from '../../src/store/journal/journal-read.js';
import { JOURNAL_HEAD_FILE, readHead } from '../../src/store/journal/journal-nsr.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { journalRig, punchRange } from '../helpers/journal.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
const rig = journalRig();
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
  rig.cleanup();
});

async function started() {
  const mock = await startMockServer({ rateLimit: { limit: 60, windowMs: 1_000 }, seed: demoSeed() });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const agent = testAgent({ dataDir: t.dir, mock });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  const markHash = (nsr: number): string | undefined => {
    const db = new Database(path.join(t.dir, DB_FILE_NAME), { readonly: true });
    try {
      return new JournalReader(db).mark(nsr)?.line.slice(MARK_BODY_LENGTH);
    } finally {
      db.close();
    }
  };
  return { agent, dir: t.dir, markHash };
}

describe('after the answer of a punch', () => {
  it('the uploader is woken: each punch of a burst is delivered long before its next look', async () => {
    const { agent } = await started();
    // Let the uploader settle into its idle wait (nothing is due after the start).
    await new Promise((r) => setTimeout(r, 300));
    const answers = [];
    for (const id of ['1001', '1002', '1004']) answers.push(await agent.punch({ kind: 'id', value: id }));
    expect(answers.map((a) => a.ok && !a.repeat)).toEqual([true, true, true]);
    // The uploader's idle look is 30 s away: only the wake-up after the answers sends them within this.
    await waitFor(() => agent.status().queue.sent === 3, 'the three punches delivered', 10_000);
  });

  it("the journal's head names the last mark once the answers are out, and again at the stop", async () => {
    const { agent, dir, markHash } = await started();
    let last = 0;
    for (const id of ['1001', '1002']) {
      const a = await agent.punch({ kind: 'id', value: id });
      if (a.ok && a.nsr !== null) last = a.nsr;
    }
    expect(last).toBe(2);
    const headFile = path.join(dir, JOURNAL_HEAD_FILE);
    await waitFor(() => readHead(headFile)?.nsr === 2, 'the head at NSR 2', 10_000);
    expect(readHead(headFile)?.hash).toBe(markHash(2));

    const third = await agent.punch({ kind: 'id', value: '1004' });
    expect(third).toMatchObject({ ok: true, nsr: 3 });
    // Stopped at once, before the next turn of the event loop: the stop writes the head the answer left to later.
    await agent.stop();
    expect(readHead(headFile)).toMatchObject({ nsr: 3, hash: markHash(3) });
  });
});

describe("the journal's head left to later (the store's side)", () => {
  it('is written once for a burst of commits, naming the last; a stop before it runs writes it', () => {
    const later: Array<() => void> = [];
    const d = rig.dir();
    const headFile = path.join(d, JOURNAL_HEAD_FILE);
    const j = rig.open(d, { headLater: (write) => later.push(write) });
    const before = readHead(headFile);
    punchRange(j.outbox, 0, 3);
    expect(later).toHaveLength(1);
    expect(readHead(headFile)).toEqual(before);
    later.splice(0).forEach((write) => write());
    expect(readHead(headFile)).toMatchObject({ nsr: 3, hash: j.reader.mark(3)?.line.slice(MARK_BODY_LENGTH) });

    punchRange(j.outbox, 3, 5);
    expect(later).toHaveLength(1);
    j.journal.close(); // the clean stop, before the later write had its turn
    expect(readHead(headFile)).toMatchObject({ nsr: 5, hash: j.reader.mark(5)?.line.slice(MARK_BODY_LENGTH) });
  });
});
