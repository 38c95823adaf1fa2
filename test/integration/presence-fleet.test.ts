/**
 * Who is on site across the site's terminals (issue 30): three real agents on one mock API and a
 * real redis-server; entries at one gate, exits at another, one board everywhere; the roll call's
 * marks shared (by touch and by badge); Redis killed mid-call; and terminals without Redis. Real
 * clock (the stream is Redis's, like the shared window's).
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { accountMock, startTerminal, type FleetRig } from '../helpers/fleet.js';
import { startRedis, type RedisProcess } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/temp.js';

let redis: RedisProcess;
const rig: FleetRig = { cleanups: [] };

beforeEach(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  while (rig.cleanups.length) await rig.cleanups.pop()?.();
  await redis.stop();
});

const badge = (i: number): string => String(100000 + i);
const presence = { pollMs: 50, fallbackEveryMs: 1_000 };

async function site(ids: string[], withRedis: boolean): Promise<Agent[]> {
  const mock = await accountMock(rig);
  const agents: Agent[] = [];
  for (const id of ids) {
    agents.push(
      await startTerminal(rig, mock, {
        terminalId: id,
        share: 3,
        ...(withRedis ? { redisUrl: redis.url } : {}),
        settings: { presence: { ...presence, gate: `portão ${id}` } },
      }),
    );
  }
  return agents;
}

async function punch(agent: Agent, i: number): Promise<void> {
  const r = await agent.punch({ kind: 'badge', value: badge(i) });
  if (!r.ok || r.repeat) throw new Error(`punch ${i} not taken: ${JSON.stringify(r)}`);
}

const inside = (a: Agent): string[] =>
  a.presence
    .board()
    .onSite.map((p) => p.employee_external_id ?? '?')
    .sort();
const live = (agents: Agent[]) => () => agents.every((a) => a.presence.board().sources.stream.state === 'live');

describe("presence through the site's stream", () => {
  it('entries at gate A, exits at gate B: one board on all three terminals, by gate, with counts', async () => {
    const [a, b, c] = (await site(['A', 'B', 'C'], true)) as [Agent, Agent, Agent];
    await waitFor(live([a, b, c]), 'all three read the stream', 5_000);
    for (let i = 0; i < 5; i++) await punch(a, i);
    const five = [0, 1, 2, 3, 4].map(badge);
    await waitFor(
      () => [a, b, c].every((t) => inside(t).join() === five.join()),
      'the five entries on every board',
      5_000,
    );
    // B labels these exits: it knows they came in at A.
    await punch(b, 0);
    await punch(b, 1);
    const three = [2, 3, 4].map(badge);
    await waitFor(
      () => [a, b, c].every((t) => inside(t).join() === three.join()),
      'the exits at B on every board',
      5_000,
    );
    const board = c.presence.board();
    expect(board.counts).toEqual({ onSite: 3, forgotExit: 0 });
    expect(board.byGate).toEqual([{ name: 'portão A', count: 3 }]);
    expect(board.onSite.every((p) => p.source === 'stream' && p.name !== null)).toBe(true);
    expect(board.sources.stream.state).toBe('live');
    expect(a.presence.board().onSite.every((p) => p.source === 'own')).toBe(true);
    // What the screen and the command line get: the contract's shape, no CPF anywhere.
    expect(JSON.stringify(board)).not.toMatch(/cpf/i);
  });

  it('roll call: the list frozen at A, marked safe by touch at B and by badge at C (the punch still recorded), counted alike; CSV and PDF at the end', async () => {
    const [a, b, c] = (await site(['A', 'B', 'C'], true)) as [Agent, Agent, Agent];
    await waitFor(live([a, b, c]), 'all three read the stream', 5_000);
    for (let i = 10; i < 14; i++) await punch(a, i);
    await waitFor(() => inside(b).length === 4 && inside(c).length === 4, 'four inside everywhere', 5_000);
    const started = a.presence.startRollCall();
    expect(started.counts).toEqual({ listed: 4, safe: 0, missing: 4 });
    // Someone entering after the start is not on the frozen list.
    await punch(a, 20);
    // A badge marks safe at a terminal that has the roll call (the stream is read every pollMs): B and C first.
    await waitFor(
      () => [b, c].every((t) => t.presence.rollCall()?.id === started.id),
      'the roll call reached B and C',
      5_000,
    );
    const key = (i: number) => started.people.find((p) => p.employee_external_id === badge(i))?.employeeKey as string;
    expect(b.presence.markSafe(key(10))).toBe('marked');
    const queued = c.status().queue.pending + c.status().queue.sent + c.status().queue.sending;
    await punch(c, 11);
    await waitFor(
      () => [a, b, c].every((t) => t.presence.rollCall()?.counts.safe === 2),
      'two safe on every terminal',
      5_000,
    );
    expect(c.status().queue.pending + c.status().queue.sent + c.status().queue.sending).toBe(queued + 1);
    const atA = a.presence.rollCall();
    expect(atA?.counts).toEqual({ listed: 4, safe: 2, missing: 2 });
    expect(atA?.people.filter((p) => p.safe).map((p) => [p.employee_external_id, p.how, p.terminal])).toEqual(
      expect.arrayContaining([
        [badge(10), 'touch', 'B'],
        [badge(11), 'badge', 'C'],
      ]),
    );
    expect(atA?.people.slice(0, 2).every((p) => !p.safe)).toBe(true);
    const ended = await a.presence.endRollCall();
    expect(ended?.active).toBe(false);
    const csv = fs.readFileSync(ended?.files?.csv as string, 'utf8');
    expect(csv.split('\n')[0]).toBe('employee_external_id,name,employer,gate,status,marked_at,how,terminal');
    expect(csv).toContain(`${badge(10)},`);
    expect(csv.match(/,missing,/g)).toHaveLength(2);
    expect(
      fs
        .readFileSync(ended?.files?.pdf as string)
        .subarray(0, 8)
        .toString('latin1'),
    ).toBe('%PDF-1.4');
    await waitFor(
      () => c.presence.rollCall()?.active === false && c.presence.rollCall()?.files !== null,
      'the end reached C, which keeps its own copy',
      5_000,
    );
  });

  it('Redis stopped mid-call: each terminal goes on with what it has and says so; back, the marks and punches meet again', async () => {
    const [a, b] = (await site(['A', 'B'], true)) as [Agent, Agent];
    await waitFor(live([a, b]), 'both read the stream', 5_000);
    for (let i = 30; i < 33; i++) await punch(a, i);
    await waitFor(() => inside(b).length === 3, 'three inside at B', 5_000);
    const rc = a.presence.startRollCall();
    await waitFor(() => b.presence.rollCall()?.id === rc.id, 'the roll call reached B', 5_000);

    await redis.kill();
    await waitFor(
      () => a.presence.rollCall()?.cutOff === true && b.presence.board().sources.stream.state === 'cut_off',
      'both say they are cut off',
      5_000,
    );
    expect(b.presence.board().sources.stream.reason).toBe('unreachable');
    const keyOf = (i: number) => rc.people.find((p) => p.employee_external_id === badge(i))?.employeeKey as string;
    expect(a.presence.markSafe(keyOf(30))).toBe('marked');
    await punch(b, 31); // a badge at B: marked safe there, and the punch (an exit) kept
    expect(a.presence.rollCall()?.counts.safe).toBe(1);
    await waitFor(() => b.presence.rollCall()?.counts.safe === 1, 'B counts its own mark', 2_000);
    expect(b.presence.board().sources.unpublished.count).toBeGreaterThan(0);
    expect(inside(b)).toEqual([badge(30), badge(32)]);

    await redis.restart();
    await waitFor(live([a, b]), 'both read the stream again', 10_000);
    await waitFor(
      () => a.presence.rollCall()?.counts.safe === 2 && b.presence.rollCall()?.counts.safe === 2,
      'the marks made apart, counted alike',
      5_000,
    );
    await waitFor(() => inside(a).join() === [badge(30), badge(32)].join(), "B's exit on A's board", 5_000);
    await waitFor(() => b.presence.board().sources.unpublished.count === 0, "B's queue published", 2_000);
    expect(a.presence.rollCall()?.cutOff).toBe(false);
  });
});

describe('presence without Redis', () => {
  it("each terminal has its own punches; the service's records of the day correct what another gate took", async () => {
    const [a, b] = (await site(['A', 'B'], false)) as [Agent, Agent];
    expect(a.presence.board().sources.stream.state).toBe('off');
    await punch(b, 40);
    await punch(b, 41);
    await waitFor(() => inside(b).join() === [badge(40), badge(41)].join(), "B's own punches on its board", 2_000);
    // 40 leaves through A, which never saw them come in: A alone would call it an entry (until the service's day of
    // 40 is read at the next fallback round, every second here; at once with presence.readAtPunch: presence-gaps).
    await punch(a, 40);
    await Promise.all([a.flush({ maxWaitMs: 5_000 }), b.flush({ maxWaitMs: 5_000 })]);
    await waitFor(
      () => inside(b).join() === badge(41) && inside(a).length === 0,
      "both boards corrected from the service's records",
      8_000,
    );
    const sources = b.presence.board().sources;
    expect(sources.stream.state).toBe('off');
    expect(sources.service.at).not.toBeNull();
    expect(sources.service.people).toBeGreaterThan(0);
  });
});
