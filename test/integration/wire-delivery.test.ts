/**
 * Capture → roster → delivery through what stands between the terminal and the service (issue 23
 * items 1 and 6): a gateway that compresses every answer, a 2xx to a stored punch whose body is
 * not the API's JSON, a body trickled a few bytes a second. Never a second record, never a stall,
 * and nothing shown to a person or logged carries raw bytes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import type { Logger, LogFields } from '../../src/log.js';
import { startMockServer, type MockServer, type ServerVariants } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { recordCounts, testAgent } from '../helpers/agent.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** Every log line of the agent, as text. */
function logLines(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (msg: string, fields?: LogFields) =>
    lines.push(`${level} ${msg} ${JSON.stringify(fields ?? {})}`);
  return { log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

async function rig(
  variants: ServerVariants = {},
  timeoutMs = 2_000,
): Promise<{ mock: MockServer; agent: Agent; lines: string[] }> {
  const mock = await startMockServer({ seed: demoSeed(), rateLimit: { limit: 60, windowMs: 1_000 }, variants });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const { log, lines } = logLines();
  const agent = testAgent({
    dataDir: t.dir,
    mock,
    log,
    timeoutMs,
    retry: { inDoubtGraceMs: 50 },
    settings: { roster: { retryBaseMs: 100, retryMaxMs: 300 } },
  });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  return { mock, agent, lines };
}

async function punch(agent: Agent, ...ids: string[]): Promise<void> {
  for (const id of ids) {
    const r = await agent.punch({ kind: 'id', value: id });
    if (!r.ok) throw new Error(`${id}: ${JSON.stringify(r)}`);
  }
}

const posts = (mock: MockServer) => mock.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/times'));
const timesReads = (mock: MockServer) => mock.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/times'));
/** C0, DEL, C1 and U+FFFD (what undecodable bytes become): none may reach a person or a log. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\ufffd]/;
function expectPrintable(what: string, texts: readonly string[]): void {
  for (const text of texts) {
    const m = CONTROL.exec(text);
    expect(
      m === null
        ? null
        : `${what}: U+${m[0].codePointAt(0)?.toString(16)} in …${text.slice(Math.max(0, m.index - 40), m.index + 40)}…`,
    ).toBeNull();
  }
}
/** Every string in status (what `timeclock status` and the admin screen show). */
function statusStrings(agent: Agent): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(walk);
  };
  walk(agent.status());
  return out;
}

describe('a gateway that compresses every answer, whatever was asked', () => {
  it.each(['gzip', 'deflate', 'br'] as const)(
    '%s: the roster syncs; punches are delivered exactly once, one of them through reconciliation',
    async (how) => {
      const { mock, agent, lines } = await rig({ compress: how });
      expect(agent.status().roster).toMatchObject({
        size: demoSeed().employees.filter((e) => e.active).length,
        lastSync: { ok: true },
      });
      // The third punch is stored and its answer lost: found again by a compressed GET /times.
      mock.setFaults({ dropAfterStore: 1, only: { method: 'POST', pathPrefix: '/times' }, afterMatches: 2 });
      await punch(agent, '1001', '1002', '1003');
      await waitFor(() => agent.status().queue.sent === 3, 'all three delivered', 20_000);
      expect([...recordCounts(mock.records()).values()]).toEqual([1, 1, 1]);
      expect(posts(mock)).toHaveLength(3);
      expect(posts(mock)[2]?.fault).toBe('drop_after_store');
      expect(timesReads(mock).length).toBeGreaterThanOrEqual(1);
      expect(agent.status()).toMatchObject({ setupProblem: null, queue: { rejected: 0, pending: 0, in_doubt: 0 } });
      expectPrintable('log', lines);
    },
  );
});

describe("a 2xx to a stored punch whose body cannot be read as the API's JSON", () => {
  it.each(['text', 'html', 'xml', 'truncated-json', 'bad-gzip', 'cut'] as const)(
    '%s: in doubt, reconciled, sent; exactly one record, never a second POST',
    async (kind) => {
      const { mock, agent, lines } = await rig();
      mock.setVariants({ postTimesBody: kind });
      await punch(agent, '1001', '1002');
      await waitFor(() => agent.status().queue.sent === 2, 'both sent', 20_000);
      expect([...recordCounts(mock.records()).values()]).toEqual([1, 1]);
      expect(posts(mock)).toHaveLength(2);
      expect(posts(mock).every((r) => r.status === 201)).toBe(true);
      // Each was found by a look at the service, after its POST.
      const firstPost = posts(mock)[0]?.at ?? 0;
      expect(timesReads(mock).filter((r) => r.at >= firstPost).length).toBeGreaterThanOrEqual(2);
      expect(agent.status()).toMatchObject({
        setupProblem: null,
        queue: { rejected: 0, pending: 0, in_doubt: 0, held: 0 },
      });
      // What it said while in doubt: what came (type, length), printable; never "not the API".
      const said = lines.filter((l) => l.includes('punch outcome unknown'));
      expect(said).toHaveLength(2);
      expect(said[0]).toMatch(
        kind === 'cut'
          ? /could not be read: cut off after \d+ bytes/
          : kind === 'bad-gzip'
            ? /could not be read: the body could not be decoded: not valid gzip data.*bytes gzip-encoded/
            : /is not the API's JSON \(HTTP 201, [a-z]+\/[a-z]+.*, \d+ bytes: /,
      );
      expect(lines.join('\n')).not.toMatch(/does not look like the API/);
      expectPrintable('log', lines);
      expectPrintable('status', statusStrings(agent));
    },
  );
});

describe('a body trickled a few bytes a second', () => {
  it('each answer ends at the request deadline; the punches are reconciled and delivery goes on, one record each', async () => {
    // api.timeoutMs 500: deadline 1.5 s; a 201 body of ~70 bytes at 5 a second would take 14 s.
    const { mock, agent } = await rig(
      { trickle: { bytesPerSecond: 5, only: { method: 'POST', pathPrefix: '/times' } } },
      500,
    );
    const t0 = Date.now();
    await punch(agent, '1001', '1002', '1003', '1004');
    await waitFor(() => agent.status().queue.sent === 4, 'all four delivered', 30_000);
    // Four trickled bodies would hold delivery for 56 s; with the deadline, a few seconds each at most.
    expect(Date.now() - t0).toBeLessThan(25_000);
    expect([...recordCounts(mock.records()).values()]).toEqual([1, 1, 1, 1]);
    expect(posts(mock)).toHaveLength(4);
    // The client hung up on every one of them before its body was through.
    for (const p of posts(mock)) expect((p.trickled?.sent ?? 0) < (p.trickled?.of ?? 0)).toBe(true);
    expect(agent.status().lastError?.message).toMatch(/no complete answer within 1500 ms/);
  });
});

describe('what status and the log say of a compressed answer', () => {
  it('a gzip page that is not the API: the reason quotes it decoded and printable, with its type, length and encoding', async () => {
    const { mock, agent, lines } = await rig();
    mock.setVariants({ compress: 'gzip', nonApi: 'html-404' });
    await punch(agent, '1001');
    await waitFor(() => agent.status().setupProblem !== null, 'the set-up problem in status');
    expect(agent.status().setupProblem?.reason).toMatch(
      /^this address does not look like the API \(HTTP 404, text\/html; charset=utf-8, \d+ bytes gzip-encoded: <html> <head><title>404 Not Found<\/title>/,
    );
    expectPrintable('status', statusStrings(agent));
    expectPrintable('log', lines);
    mock.setVariants({ compress: 'gzip' });
    await waitFor(
      () => mock.records().length === 1 && agent.status().queue.sent === 1,
      'delivered once the address answers right',
      15_000,
    );
    expect(agent.status().setupProblem).toBeNull();
  });
});
