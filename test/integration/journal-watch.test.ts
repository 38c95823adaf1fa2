import { afterEach, describe, expect, it } from 'vitest';
import { JournalWatch, type JournalVerifyRecord } from '../../src/agent/journal/journal-watch.js';
import { silentLogger } from '../../src/log.js';
import { dropJournalTriggers, openJournalled, punchRange } from '../helpers/journal.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

describe('the journal watch', () => {
  it('verifies once shortly after the start, keeps the record, warns when the chain breaks, and stops cleanly', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const j = openJournalled(t.dir);
    cleanups.push(() => void j.db.close());
    punchRange(j.outbox, 0, 5);
    const records: JournalVerifyRecord[] = [];
    const warnings: string[] = [];
    const errors: string[] = [];
    const watch = new JournalWatch({
      db: j.db,
      clock: { now: () => 1_000 },
      log: { ...silentLogger, warn: (m) => void warnings.push(m) },
      write: (r) => void records.push(r),
      noteError: (m) => void errors.push(m),
      changed: () => {},
      firstAfterMs: 20,
      everyMs: 3_600_000,
    });
    cleanups.push(() => watch.stop());
    watch.start();
    await waitFor(() => records.length === 1, 'the first verification');
    expect(records[0]).toMatchObject({ at: 1_000, ok: true, marks: 5, facts: 0, problem: null });

    dropJournalTriggers(j.db);
    j.db.prepare('DELETE FROM journal_marks WHERE nsr = 2').run();
    const broken = await watch.verifyNow();
    expect(broken).toMatchObject({
      ok: false,
      marks: 4,
      problem: { nsr: 3, message: expect.stringMatching(/NSRs 2-2 are missing/) },
    });
    expect(warnings).toEqual([expect.stringMatching(/evidence journal does not verify/)]);
    expect(errors).toEqual([expect.stringMatching(/NSRs 2-2 are missing/)]);
    // Punching goes on.
    expect(punchRange(j.outbox, 5, 6)).toEqual([6]);

    await watch.stop();
    expect(await watch.verifyNow()).toBeNull();
    expect(records).toHaveLength(2);
  });
});
