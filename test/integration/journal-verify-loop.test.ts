import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyJournal } from '../../src/store/journal-verify.js';
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
    j.db.transaction(() => {
      for (let i = 0; i < MARKS; i++) {
        const nsr = j.journal.reserveNsr(MARKS - i - 1);
        const at = BASE + i * 60_000;
        j.journal.appendMark({ nsr, at, localDate: '2026-03-02', localTime: '08:00', zone: ZONE, recordedAt: at, cpf: null });
      }
    }).immediate();
    j.journal.settle();

    const delay = monitorEventLoopDelay({ resolution: 5 });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    delay.enable();
    const v = await verifyJournal(j.db);
    delay.disable();
    clearInterval(ticker);
    const maxMs = delay.max / 1e6;
    console.log(`verify ${MARKS} marks: ${v.ms} ms in all; event loop delay max ${maxMs.toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms; ${ticks} timer ticks meanwhile`);
    expect(v).toMatchObject({ ok: true, marks: MARKS, facts: 0, firstProblem: null });
    // Timers ran during the check (it yields between chunks); a generous bound, not a benchmark.
    expect(ticks).toBeGreaterThan(0);
    expect(maxMs).toBeLessThan(250);
  });
});
