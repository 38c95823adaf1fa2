/**
 * Terminals as they are really rolled out (issue 24, items 1 and 2): made from one disk image, so
 * they share a terminal id and their fresh databases number their slots from 1 alike. Real agents,
 * one mock API enforcing the account limit, a real redis-server; real clock, one-second windows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentMetrics } from '../../src/agent/metrics/metrics.js';
import { statusText } from '../../src/cli/status/format.js';
import { terminalIdOf } from '../../src/config.js';
import { TERMINAL_ID_FILE } from '../../src/config-terminal-id.js';
import { createLogger } from '../../src/log.js';
import { defaultRateKey } from '../../src/sync/window/redis-window.js';
import { recordCounts } from '../helpers/agent.js';
import {
  accountMock,
  ACCOUNT_LIMIT,
  freshDir,
  punchBacklog,
  serviceView,
  startTerminal,
  fleetOnRedis,
} from '../helpers/fleet.js';
import { parseProm, sample } from '../helpers/prom-text.js';
import { waitFor } from '../helpers/temp.js';

const { rig, redis, raw } = fleetOnRedis({ flush: true });

/** waitFor for a condition that asks Redis. */
async function waitForAsync(pred: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

type Line = { level: string; msg: string; hosts?: string[]; instances?: string[] };
function captured(): { lines: Line[]; log: ReturnType<typeof createLogger> } {
  const lines: Line[] = [];
  return { lines, log: createLogger({ level: 'info', write: (l) => lines.push(JSON.parse(l) as Line) }) };
}

describe('three terminals under ONE terminal id, each with a fresh database (a cloned image)', () => {
  it("share the window without overwriting each other's slots: no 429, never above the limit, every punch once", async () => {
    const mock = await accountMock(rig);
    const agents = await Promise.all(
      [0, 1, 2].map(() => startTerminal(rig, mock, { terminalId: 'clone', share: ACCOUNT_LIMIT, redisUrl: redis.url })),
    );
    await waitFor(
      () => agents.every((a) => a.status().rate?.shared === 'redis'),
      'every terminal in the shared window',
      5_000,
    );
    const instances = agents.map((a) => a.status().fleet?.instanceId);
    expect(new Set(instances).size).toBe(3);
    await Promise.all(agents.map((a, i) => punchBacklog(a, i * 20, 20)));
    // While they drain: the window's members name the instance, so slot 1 of each is three members.
    const key = defaultRateKey(mock.url, 'demo-token');
    await waitForAsync(
      async () => new Set((await raw().zrange(key, '0', '-1')).map((m) => m.split(':')[1])).size === 3,
      'members of all three',
      5_000,
    );
    await waitFor(() => agents.every((a) => a.status().queue.sent === 20), 'every punch delivered', 20_000);
    const seen = serviceView(mock);
    expect(seen.refused).toBe(0);
    expect(seen.maxPerWindow).toBeLessThanOrEqual(ACCOUNT_LIMIT);
    const counts = recordCounts(mock.records());
    expect(counts.size).toBe(60);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
  });
});

describe("the fleet's registry of live terminals", () => {
  it("two live terminals under one id: both report it, naming the other's host and instance, in status, metrics and the log (once)", async () => {
    const mock = await accountMock(rig);
    const one = captured();
    const two = captured();
    const a = await startTerminal(rig, mock, {
      terminalId: 'caixa-1',
      share: 5,
      redisUrl: redis.url,
      host: 'loja-norte',
      announceEveryMs: 200,
      log: one.log,
    });
    const b = await startTerminal(rig, mock, {
      terminalId: 'caixa-1',
      share: 5,
      redisUrl: redis.url,
      host: 'loja-sul',
      announceEveryMs: 200,
      log: two.log,
    });
    await waitFor(
      () => a.status().fleet?.conflict != null && b.status().fleet?.conflict != null,
      'both see the conflict',
      5_000,
    );
    const [sa, sb] = [a.status(), b.status()];
    expect(sa.fleet?.conflict?.others).toEqual([
      expect.objectContaining({ id: 'caixa-1', host: 'loja-sul', instance: sb.fleet?.instanceId, pid: process.pid }),
    ]);
    expect(sb.fleet?.conflict?.others).toEqual([
      expect.objectContaining({ id: 'caixa-1', host: 'loja-norte', instance: sa.fleet?.instanceId }),
    ]);
    expect(statusText(sa)).toMatch(/^terminal: +caixa-1 on host loja-norte$/m);
    expect(statusText(sa)).toMatch(
      new RegExp(
        `^ID CONFLICT: +terminal id caixa-1 is also used by host loja-sul \\(instance ${sb.fleet?.instanceId}, pid \\d+, started .+\\); this one runs on host loja-norte`,
        'm',
      ),
    );
    expect(
      sample(parseProm(await agentMetrics(a, { processMetrics: false }).scrape()), 'timeclock_terminal_id_conflict'),
    ).toBe(1);
    // Several renewals later, still one line each, naming the hosts.
    await new Promise((r) => setTimeout(r, 1_000));
    const conflictLines = (l: Line[]) =>
      l.filter((x) => x.level === 'warn' && x.msg.startsWith('terminal id conflict'));
    expect(conflictLines(one.lines)).toHaveLength(1);
    expect(conflictLines(one.lines)[0]).toMatchObject({ hosts: ['loja-sul'], instances: [sb.fleet?.instanceId] });
    expect(conflictLines(two.lines)).toHaveLength(1);
    expect(conflictLines(two.lines)[0]?.msg).toContain('also used by host loja-norte');

    // One stops: its entry leaves the registry, and the other's conflict is over.
    await b.stop();
    await waitFor(() => a.status().fleet?.conflict === null, 'the conflict over', 5_000);
    expect(one.lines.some((l) => l.msg.startsWith('terminal id conflict over'))).toBe(true);
    expect(
      sample(parseProm(await agentMetrics(a, { processMetrics: false }).scrape()), 'timeclock_terminal_id_conflict'),
    ).toBe(0);
  });

  it('distinct ids: no conflict on either', async () => {
    const mock = await accountMock(rig);
    const a = await startTerminal(rig, mock, {
      terminalId: 'caixa-1',
      share: 5,
      redisUrl: redis.url,
      announceEveryMs: 200,
    });
    const b = await startTerminal(rig, mock, {
      terminalId: 'caixa-2',
      share: 5,
      redisUrl: redis.url,
      announceEveryMs: 200,
    });
    await waitFor(
      () => a.status().rate?.shared === 'redis' && b.status().rate?.shared === 'redis',
      'both sharing',
      5_000,
    );
    // Both announced, and each has read the registry after the other's entry was in it.
    const registry = `${defaultRateKey(mock.url, 'demo-token')}:terminals`;
    await waitForAsync(async () => (await raw().zcard(registry)) === 2, 'both in the registry', 5_000);
    await new Promise((r) => setTimeout(r, 600));
    for (const s of [a.status(), b.status()]) {
      expect(s.fleet?.conflict).toBeNull();
      expect(statusText(s)).not.toMatch(/CONFLICT/);
    }
    expect(
      sample(parseProm(await agentMetrics(a, { processMetrics: false }).scrape()), 'timeclock_terminal_id_conflict'),
    ).toBe(0);
  });

  it('a data directory copied to another box carries its random id along: the registry finds the two', async () => {
    const mock = await accountMock(rig);
    const original = freshDir(rig);
    const a = await startTerminal(rig, mock, {
      share: 5,
      redisUrl: redis.url,
      host: 'box-a',
      announceEveryMs: 200,
      dataDir: original,
    });
    const id = a.status().terminalId;
    expect(id).toMatch(/^tc-[a-z2-7]{8}$/);
    await a.stop();
    const copy = freshDir(rig);
    fs.cpSync(original, copy, { recursive: true });
    const [x, y] = await Promise.all([
      startTerminal(rig, mock, {
        share: 5,
        redisUrl: redis.url,
        host: 'box-a',
        announceEveryMs: 200,
        dataDir: original,
      }),
      startTerminal(rig, mock, { share: 5, redisUrl: redis.url, host: 'box-b', announceEveryMs: 200, dataDir: copy }),
    ]);
    expect(y.status().terminalId).toBe(id);
    await waitFor(
      () =>
        x.status().fleet?.conflict?.others[0]?.host === 'box-b' &&
        y.status().fleet?.conflict?.others[0]?.host === 'box-a',
      'the clone found',
      5_000,
    );
  });
});

describe('the default terminal id', () => {
  it('is made once at random, kept in the data directory (0644), stable over restarts, distinct per directory; a configured one wins', () => {
    const one = freshDir(rig);
    const two = freshDir(rig);
    const id = terminalIdOf({ dataDir: one });
    expect(id).toMatch(/^tc-[a-z2-7]{8}$/);
    expect(fs.readFileSync(path.join(one, TERMINAL_ID_FILE), 'utf8')).toBe(`${id}\n`);
    if (process.platform !== 'win32') expect(fs.statSync(path.join(one, TERMINAL_ID_FILE)).mode & 0o777).toBe(0o644);
    expect(terminalIdOf({ dataDir: one })).toBe(id);
    expect(terminalIdOf({ dataDir: two })).not.toBe(id);
    expect(terminalIdOf({ dataDir: one, terminalId: 'portaria-2' })).toBe('portaria-2');
    // No temp file left behind; a damaged file is replaced by a new id.
    expect(fs.readdirSync(one)).toEqual([TERMINAL_ID_FILE]);
    fs.writeFileSync(path.join(two, TERMINAL_ID_FILE), 'garbage\n');
    expect(terminalIdOf({ dataDir: two })).toMatch(/^tc-[a-z2-7]{8}$/);
  });
});
