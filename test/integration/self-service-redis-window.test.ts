/**
 * Self-service reads in the fleet's shared window (redis-window-scripts.ts, against a real
 * redis-server): the reads of all terminals together go only while the account's window is below
 * selfService.maxShare of the limit, as one terminal's do in its own window; a shift change on any
 * terminal then finds the rest of the window free. Before, each terminal held its reads to a share
 * of the slots it alone had taken, so ten terminals could fill the account's window with them.
 */
import { describe, expect, it } from 'vitest';
import { Priority } from '../../src/sync/window/rate-budget.js';
import type { RedisSharedWindow } from '../../src/sync/window/redis-window.js';
import { redisTerminals } from '../helpers/redis-terminals.js';

const { terminal, freshKey } = redisTerminals({ limit: 20, punchReserve: 2 });

describe('self-service reads in the shared window', () => {
  it('of all terminals together stop at the share of the account window; punches and roster pages of any terminal go on', async () => {
    const key = freshKey('test:self-service-rate');
    const fleet = await Promise.all(['A', 'B', 'C', 'D'].map((id) => terminal(id, { key, selfServiceShare: 0.1 })));
    const [a, b, c, d] = fleet as [RedisSharedWindow, RedisSharedWindow, RedisSharedWindow, RedisSharedWindow];
    // 10 % of 20: two reads in the account's window, whichever terminals ask.
    expect(await a.take(Priority.selfService, 1, 2_000)).toEqual({ ok: true });
    expect(await b.take(Priority.selfService, 1, 2_000)).toEqual({ ok: true });
    for (const t of [c, d, a]) expect((await t.take(Priority.selfService, 2, 2_000)).ok).toBe(false);
    // The other 18 are the shift change's: every punch of any terminal finds one.
    let punches = 0;
    for (let i = 0; i < 18; i++)
      if ((await (fleet[i % 4] as RedisSharedWindow).take(Priority.punch, 10 + i, 2_000)).ok) punches++;
    expect(punches).toBe(18);
    expect((await d.take(Priority.punch, 40, 2_000)).ok).toBe(false);
  });

  it('a roster page is not held to the reads’ share, only to the punch reserve', async () => {
    const key = freshKey('test:self-service-rate');
    const a = await terminal('A', { key, selfServiceShare: 0.1 });
    const b = await terminal('B', { key, selfServiceShare: 0.1 });
    expect(await a.take(Priority.selfService, 1, 2_000)).toEqual({ ok: true });
    expect(await a.take(Priority.selfService, 2, 2_000)).toEqual({ ok: true });
    expect((await b.take(Priority.selfService, 1, 2_000)).ok).toBe(false);
    for (let i = 0; i < 16; i++) expect(await b.take(Priority.roster, 10 + i, 2_000)).toEqual({ ok: true });
    // 18 of 20 in use: the last 2 are the punch reserve.
    expect((await b.take(Priority.roster, 30, 2_000)).ok).toBe(false);
    expect(await a.take(Priority.punch, 30, 2_000)).toEqual({ ok: true });
  });
});
