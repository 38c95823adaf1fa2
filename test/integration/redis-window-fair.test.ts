/**
 * The take script's fairness (issue 24 item 3) against a real redis-server: a freed slot goes to the
 * terminal whose oldest punch has waited longest, not to whoever asks first; a terminal that stops
 * asking costs the others at most its mark's hold. Redis time, so real clock, windows of 300 ms.
 */
import { describe, expect, it } from 'vitest';
import { Priority } from '../../src/sync/window/rate-budget.js';
import type { SharedTake } from '../../src/sync/window/shared-window.js';
import { redisTerminals } from '../helpers/redis-terminals.js';

const WINDOW = 300;
const HOLD = 400;
const { terminal, freshKey } = redisTerminals({ limit: 1, inFlightMs: 100, holdMs: HOLD });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Holds the one slot, answered now: it frees one window later. */
async function fillWindow(x: Awaited<ReturnType<typeof terminal>>): Promise<void> {
  expect(await x.take(Priority.punch, 1, WINDOW)).toEqual({ ok: true });
  await x.release(1, WINDOW);
}

describe('a freed slot of the shared window', () => {
  it('goes to the terminal whose punch has waited longest, even when a younger one asks first', async () => {
    const key = freshKey('test:fair');
    const old = await terminal('OLD', { key });
    const young = await terminal('YOUNG', { key });
    await fillWindow(young);
    // Both refused for a full window; OLD's punch has waited 5 s, YOUNG's 10 ms.
    const oldRefused = await old.take(Priority.punch, 1, WINDOW, { oldestMs: 5_000, nextMs: null });
    expect(oldRefused.ok).toBe(false);
    expect((await young.take(Priority.punch, 2, WINDOW, { oldestMs: 10, nextMs: null })).ok).toBe(false);
    await sleep(WINDOW + 50); // the slot frees
    // YOUNG is first back: the slot is kept for OLD, and YOUNG is told to look again once OLD's mark lapses.
    const kept = await young.take(Priority.punch, 3, WINDOW, { oldestMs: 400, nextMs: null });
    expect(kept.ok).toBe(false);
    if (!kept.ok) expect(kept.waitMs).toBeLessThanOrEqual(HOLD);
    expect(await old.take(Priority.punch, 2, WINDOW, { oldestMs: 5_400, nextMs: null })).toEqual({ ok: true });
    // Then the window is full again, for YOUNG as for anybody.
    const full = await young.take(Priority.punch, 4, WINDOW, { oldestMs: 410, nextMs: null });
    expect(full.ok).toBe(false);
    if (!full.ok) expect(full.waitMs).toBeGreaterThan(WINDOW / 2);
  });

  it("is not kept for a terminal that stopped asking past its mark's hold", async () => {
    const key = freshKey('test:fair');
    const gone = await terminal('GONE', { key });
    const young = await terminal('YOUNG', { key });
    await fillWindow(young);
    expect((await gone.take(Priority.punch, 1, WINDOW, { oldestMs: 5_000, nextMs: null })).ok).toBe(false);
    await sleep(WINDOW + 50);
    const kept = await young.take(Priority.punch, 2, WINDOW, { oldestMs: 400, nextMs: null });
    expect(kept.ok).toBe(false);
    if (kept.ok) return;
    // GONE never comes back: YOUNG, coming back as told, gets the slot once the mark has lapsed.
    const refusedAt = Date.now();
    let answer: SharedTake = kept;
    while (!answer.ok && Date.now() - refusedAt < 5 * HOLD) {
      await sleep(answer.waitMs);
      answer = await young.take(Priority.punch, 3, WINDOW, { oldestMs: 400 + Date.now() - refusedAt, nextMs: null });
    }
    expect(answer).toEqual({ ok: true });
    expect(Date.now() - refusedAt).toBeLessThanOrEqual(HOLD + 150);
  });

  it('keeps one slot per older waiting terminal, no more: the rest go to whoever asks', async () => {
    const key = freshKey('test:fair');
    const old = await terminal('OLD', { key, limit: 3 });
    const young = await terminal('YOUNG', { key, limit: 3 });
    // OLD took a slot with another punch behind it, waiting 2 s: one of the two free slots is kept for it.
    expect(await old.take(Priority.punch, 1, WINDOW, { oldestMs: 3_000, nextMs: 2_000 })).toEqual({ ok: true });
    expect(await young.take(Priority.punch, 1, WINDOW, { oldestMs: 10, nextMs: null })).toEqual({ ok: true });
    expect((await young.take(Priority.punch, 2, WINDOW, { oldestMs: 10, nextMs: null })).ok).toBe(false);
    expect(await old.take(Priority.punch, 2, WINDOW, { oldestMs: 2_000, nextMs: null })).toEqual({ ok: true });
  });

  it("makes no difference to a terminal alone, whatever its punches' age", async () => {
    const key = freshKey('test:fair');
    const lone = await terminal('LONE', { key, limit: 3 });
    for (let id = 1; id <= 3; id++)
      expect(await lone.take(Priority.punch, id, WINDOW, { oldestMs: 100 * id, nextMs: 50 })).toEqual({ ok: true });
  });
});

describe("the fleet's reads, band by band", () => {
  it("a warden board's read waiting at one terminal goes before another terminal's self-service prefetch, and is not told to wait out a request in flight", async () => {
    const key = freshKey('test:bands');
    // A long hold: BOARD's mark outlives the wait below however busy the machine.
    const board = await terminal('BOARD', { key, holdMs: 5_000 });
    const prefetch = await terminal('PREFETCH', { key, holdMs: 5_000 });
    // The reads' band is one slot here (a tenth of a limit of 3, at least one): the prefetch holds it, in flight.
    expect(await prefetch.take(Priority.selfService, 1, WINDOW)).toEqual({ ok: true });
    const refused = await board.take(Priority.presence, 1, WINDOW);
    expect(refused.ok).toBe(false);
    // In flight until a window and the request timeout from now; BOARD looks again within a tenth of a window.
    if (!refused.ok) expect(refused.waitMs).toBeLessThanOrEqual(WINDOW / 10);
    await prefetch.release(1, WINDOW);
    await sleep(WINDOW + 50); // the slot frees
    // The prefetch asks first, and waits: BOARD's earlier band is marked.
    const behind = await prefetch.take(Priority.selfService, 2, WINDOW);
    expect(behind.ok).toBe(false);
    if (!behind.ok) expect(behind.waitMs).toBeLessThanOrEqual(WINDOW / 10);
    expect(await board.take(Priority.presence, 2, WINDOW)).toEqual({ ok: true });
    // BOARD's read taken, its mark is gone: the prefetch goes once the band has room again.
    await board.release(2, WINDOW);
    await sleep(WINDOW + 50);
    expect(await prefetch.take(Priority.selfService, 3, WINDOW)).toEqual({ ok: true });
  });
});
