import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import { BASE, openJournalled, ZONE } from '../helpers/journal.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});

const MARKS = 100_000;

describe('verifying a big journal', () => {
  it(`checks ${MARKS.toLocaleString('en')} marks in chunks, the event loop never held for long`, async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const j = openJournalled(t.dir);
    cleanups.push(() => j.db.close());
    // Marks alone (no punch rows), in one transaction: the file a year of punches leaves.
    j.db
      .transaction(() => {
        for (let i = 0; i < MARKS; i++) {
          const nsr = j.journal.reserveNsr(MARKS - i - 1);
          const at = BASE + i * 60_000;
          j.journal.appendMark({
            nsr,
            at,
            localDate: '2026-03-02',
            localTime: '08:00',
            zone: ZONE,
            recordedAt: at,
            cpf: null,
          });
        }
      })
      .immediate();
    j.journal.settle();

    // How often the event loop got a turn while verifying: an immediate that re-arms itself runs once a
    // turn. Counted, not timed (the stall in ms is the journal bench's figure, not a test's).
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const v = await verifyJournal(j.db);
    delay.disable();
    counting = false;
    console.log(
      `verify ${MARKS} marks: ${v.ms} ms in all; event loop delay max ${(delay.max / 1e6).toFixed(1)} ms; ${turns} turns of the loop meanwhile`,
    );
    expect(v).toMatchObject({ ok: true, marks: MARKS, facts: 0, firstProblem: null });
    // Chunks are at most 10,000 rows, the loop free between them: at least one turn per chunk.
    expect(turns).toBeGreaterThanOrEqual(MARKS / 10_000);
  });
});
