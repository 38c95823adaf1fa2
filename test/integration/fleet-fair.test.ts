/**
 * Issue 24 item 3, fairness: in the shared window, slots go to the fleet's oldest waiting punches,
 * so a terminal with most of the backlog is not left to finish windows after the others. Real
 * agents, one mock enforcing the account's limit (10 per 1 s), a real redis-server, real clock.
 */
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { recordCounts } from '../helpers/agent.js';
import {
  accountMock,
  ACCOUNT_LIMIT,
  pause,
  serviceView,
  startTerminal,
  WINDOW_MS,
  fleetOnRedis,
} from '../helpers/fleet.js';
import { waitFor } from '../helpers/temp.js';

const { rig, redis } = fleetOnRedis();

/**
 * People badging at `agent` at `offsets` (ms from `t0`), employees from `from` on; `takenAt` gets each one's moment
 * (the punch reads the clock as it starts): a busy machine lets a terminal fall behind its schedule.
 */
async function badgeAt(
  agent: Agent,
  from: number,
  offsets: number[],
  t0: number,
  takenAt: Map<number, number>,
): Promise<void> {
  for (let k = 0; k < offsets.length; k++) {
    const wait = t0 + (offsets[k] as number) - Date.now();
    if (wait > 0) await pause(wait);
    takenAt.set(from + k, Date.now());
    const r = await agent.punch({ kind: 'badge', value: String(100000 + from + k) });
    if (!r.ok) throw new Error(`punch ${from + k} refused: ${JSON.stringify(r)}`);
  }
}

describe('3 terminals sharing the window in Redis, one with most of the punches', () => {
  it("oldest first: each terminal's last punch goes within one window of its turn; no 429, never over the limit, every punch once", async () => {
    const mock = await accountMock(rig);
    const agents = await Promise.all(
      ['MAIN', 'SIDE1', 'SIDE2'].map((terminalId) =>
        startTerminal(rig, mock, { terminalId, share: ACCOUNT_LIMIT, redisUrl: redis.url }),
      ),
    );
    await waitFor(
      () => agents.every((a) => a.status().rate?.shared === 'redis'),
      'every terminal in the shared window',
      5_000,
    );
    await pause(WINDOW_MS + 100); // past the window of caution after joining
    // Over two windows: 40 punches at the main entrance, 5 at each side door, the last of each at
    // the same moment. Five windows of work: a backlog forms and the window decides who goes.
    const schedule = [
      Array.from({ length: 40 }, (_, k) => 50 * k),
      [350, 750, 1150, 1550, 1950],
      [375, 775, 1175, 1575, 1950],
    ];
    const firstOf = [0, 40, 45];
    const each = schedule.map((s) => s.length);
    const since = Date.now();
    const doneAt: (number | null)[] = agents.map(() => null);
    const takenAt = new Map<number, number>();
    const watch = setInterval(() => {
      agents.forEach((a, i) => {
        if (doneAt[i] === null && a.status().queue.sent === each[i]) doneAt[i] = Date.now();
      });
    }, 10);
    try {
      await Promise.all(
        agents.map((a, i) => badgeAt(a, firstOf[i] as number, schedule[i] as number[], since, takenAt)),
      );
      await waitFor(() => doneAt.every((t) => t !== null), 'every punch delivered', 20_000);
    } finally {
      clearInterval(watch);
    }
    // First come, first served, counted in slots rather than milliseconds (a busy machine stretches
    // time, not the order the window decides): each terminal's last punch is delivered within one
    // window of deliveries of its place in the order the fleet took the punches. Oldest-first puts the
    // side doors' last punches (badged last) at the end; without it they went about 23 slots before
    // their place. The place is counted from when each punch was taken, not from the schedule: on a
    // busy machine the main entrance's 40 punches fall behind it, and the side doors' are then older.
    const order = mock
      .records()
      .filter((r) => r.receivedAt >= since)
      .sort((a, b) => a.receivedAt - b.receivedAt)
      .map((r) => Number(r.employee_external_id) - 100000);
    const taken = [...takenAt.entries()].sort((a, b) => a[1] - b[1]).map(([n]) => n);
    const lasts = firstOf.map((from, i) => from + (each[i] as number) - 1);
    const lastSlot = lasts.map((n) => order.indexOf(n));
    const place = lasts.map((n) => taken.indexOf(n));
    const done = doneAt as number[];
    const spread = `last punches delivered at slots ${lastSlot.join(', ')}, taken at places ${place.join(', ')} of ${order.length}; finished ${done.map((t) => t - since).join(', ')} ms`;
    const behind = lastSlot.map((slot, i) => Math.abs(slot - (place[i] as number)));
    expect(Math.max(...behind), spread).toBeLessThanOrEqual(ACCOUNT_LIMIT);
    const seen = serviceView(mock, since);
    expect(seen.refused).toBe(0);
    expect(seen.maxPerWindow).toBeLessThanOrEqual(ACCOUNT_LIMIT);
    const counts = recordCounts(mock.records());
    expect(counts.size).toBe(50);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
  });
});
