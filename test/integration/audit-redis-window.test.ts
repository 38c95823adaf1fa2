/**
 * The audit's reads in the fleet's shared window (redis-window-scripts.ts, against a real
 * redis-server): like roster pages, anything but a punch stops short of the punch reserve and
 * waits while a punch of any terminal waits.
 */
import { describe, expect, it } from 'vitest';
import { Priority } from '../../src/sync/window/rate-budget.js';
import { redisTerminals } from '../helpers/redis-terminals.js';

const { terminal, freshKey } = redisTerminals({});

describe('audit reads in the shared window', () => {
  it('stop short of the punch reserve, which punches of any terminal then use', async () => {
    const key = freshKey('test:audit-rate');
    const a = await terminal('A', { key, limit: 4, punchReserve: 2 });
    const b = await terminal('B', { key, limit: 4, punchReserve: 2 });
    expect(await a.take(Priority.audit, 1, 2_000)).toEqual({ ok: true });
    expect(await b.take(Priority.roster, 1, 2_000)).toEqual({ ok: true });
    expect((await a.take(Priority.audit, 2, 2_000)).ok).toBe(false);
    expect(await b.take(Priority.punch, 2, 2_000)).toEqual({ ok: true });
    expect(await a.take(Priority.punch, 3, 2_000)).toEqual({ ok: true });
  });

  it('wait while a punch of another terminal waits', async () => {
    const key = freshKey('test:audit-rate');
    const a = await terminal('A', { key, limit: 1 });
    const b = await terminal('B', { key, limit: 1 });
    expect(await a.take(Priority.punch, 1, 300)).toEqual({ ok: true });
    expect((await a.take(Priority.punch, 2, 300)).ok).toBe(false); // full: A's punch waits, and says so
    await a.release(1, 300);
    await new Promise((r) => setTimeout(r, 320)); // room again, but A's mark stands
    const audit = await b.take(Priority.audit, 1, 300);
    expect(audit.ok).toBe(false);
    if (!audit.ok) expect(audit.waitMs).toBeGreaterThan(0);
    expect(await a.take(Priority.punch, 2, 300)).toEqual({ ok: true });
  });
});
