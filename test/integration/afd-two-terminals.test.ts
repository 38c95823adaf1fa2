/**
 * Issue 26, items 5 and 10, as an inspector handed the AFDs of one employer's two terminals would
 * see them: two agents, each with its own data directory, on one service (the mock), punching on the
 * same days. Each terminal is an installation of the REP-P with its own NSR sequence (both start at
 * 1: docs/evidence-journal.md, "Who the REP-P is"), so what keeps them apart is the file: its name
 * names the terminal (after the Annex's part), `timeclock afd export` and the admin export say it,
 * and `afd verify` reads it back. Both files go to one folder (one USB drive) without one replacing
 * the other, and each is accepted by the Annex V verifier and by `timeclock afd verify`. A punch
 * taken while the service does not answer is still on-line ("0"): the terminal recorded it in its
 * own journal as it was taken.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcess as cli } from '../helpers/cli.js';
import type { Agent } from '../../src/agent/facade/agent.js';
import { runAfd } from '../../src/cli/evidence/afd.js';
import type { CliOptions } from '../../src/cli/common/options.js';
import { parseMark } from '../../src/domain/afd/mark.js';
import { verifyAfd } from '../../src/domain/afd/verify.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { sha256Latin1 } from '../../src/store/journal/journal-facts.js';
import { EMPLOYER, spInstant } from '../helpers/afd.js';
import { testAgent } from '../helpers/agent.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const tmp = tempDir('timeclock-afd-two-terminals-');
const cleanups: Array<() => Promise<void> | void> = [];
const DAY = '2026-08-03';
const ANNEX = 'AFD0000512023001234511222333000181REP_P';
const NORTE = { id: 'portaria-norte', dir: '', name: `${ANNEX}-portaria-norte.txt` };
const SUL = { id: 'portaria-sul', dir: '', name: `${ANNEX}-portaria-sul.txt` };
let mock: MockServer;
const agents: Record<string, Agent> = {};
const clock = { t: spInstant(DAY, '07:00'), now: () => clock.t };

async function punch(t: { id: string }, time: string, worker: string): Promise<void> {
  clock.t = spInstant(DAY, time);
  const r = await (agents[t.id] as Agent).punch({ kind: 'id', value: worker });
  if (!r.ok) throw new Error(`${t.id}: punch ${worker} at ${time} refused`);
}

const configOf = (t: { id: string; dir: string }): string => {
  const file = path.join(tmp.dir, `${t.id}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({ dataDir: t.dir, employer: EMPLOYER, timezone: 'America/Sao_Paulo', terminalId: t.id }),
  );
  return file;
};

beforeAll(async () => {
  mock = await startMockServer({ seed: demoSeed(), rateLimit: { limit: 60, windowMs: 1_000 }, clock });
  cleanups.push(() => mock.close());
  for (const t of [NORTE, SUL]) {
    t.dir = path.join(tmp.dir, t.id);
    const agent = testAgent({ dataDir: t.dir, mock, clock, settings: { employer: EMPLOYER, terminalId: t.id } });
    cleanups.push(() => agent.stop());
    await agent.start({ awaitRosterIfEmpty: true });
    agents[t.id] = agent;
  }
  // The same morning at both gates; a worker punches in at one and out at the other.
  await punch(NORTE, '08:00', '1001');
  await punch(SUL, '08:01', '1002');
  await punch(NORTE, '08:02', '1003');
  await punch(SUL, '12:00', '1001');
  await waitFor(() => mock.records().length === 4, 'the four punches delivered');
  // The service stops answering (500 to everything): the south gate's next punch is kept all the same.
  mock.setFaults({ serverError: 1 });
  await punch(SUL, '12:05', '1003');
  await waitFor(
    () => (agents[SUL.id] as Agent).status().online === false,
    'the south gate sees the service not answering',
  );
  await punch(SUL, '13:00', '1002');
}, 60_000);

afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  tmp.cleanup();
});

describe('two terminals of one employer, exporting the same day', () => {
  it('timeclock afd export: two files in one folder, each named for its terminal, each its own NSR sequence, each valid', async () => {
    const out = path.join(tmp.dir, 'pendrive');
    fs.mkdirSync(out);
    const runs = [];
    for (const t of [NORTE, SUL]) {
      const opts: CliOptions = { config: configOf(t), from: DAY, to: DAY, out };
      const r = await cli(() => runAfd(opts, ['export']));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`wrote ${path.join(out, t.name)}`);
      expect(r.stdout).toContain(`terminal ${t.id}: its own NSR sequence`);
      runs.push(r);
    }
    // The second export did not replace (nor refuse for) the first: the names differ.
    expect(fs.readdirSync(out).sort()).toEqual([NORTE.name, SUL.name]);

    const read = (name: string) => {
      const text = fs.readFileSync(path.join(out, name)).toString('latin1');
      const marks = text.split('\r\n').filter((l) => l.length === 137 && l[9] === '7');
      return { text, marks: marks.map((l) => parseMark(l)).map((m) => (m.ok ? m.mark : null)) };
    };
    const norte = read(NORTE.name);
    const sul = read(SUL.name);
    // Each installation numbers from 1: the same NSRs in both files, kept apart by the names.
    expect(norte.marks.map((m) => m?.nsr)).toEqual([1, 2]);
    expect(sul.marks.map((m) => m?.nsr)).toEqual([1, 2, 3, 4]);
    // Every mark on-line: each was recorded in its terminal's journal as it was taken, the two
    // taken while the service answered 500 too (NSR 3 and 4 of the south gate).
    expect([...norte.marks, ...sul.marks].map((m) => m?.online)).toEqual([true, true, true, true, true, true]);
    expect(sul.marks.map((m) => m?.recordedAt)).toEqual(sul.marks.map((m) => m?.markedAt));
    for (const f of [norte, sul]) {
      expect(verifyAfd(f.text, sha256Latin1)).toMatchObject({ ok: true, chain: { kind: 'from-start' } });
    }

    for (const t of [NORTE, SUL]) {
      const v = await cli(() => runAfd({ 'allow-unsigned': true }, ['verify', path.join(out, t.name)]));
      expect(v.code, v.stdout).toBe(0);
      expect(v.stdout).toContain(`terminal ${t.id} (from the file's name)`);
      expect(v.stdout).toContain('result: valid');
    }
  });

  it('the admin screen export names the terminal in the file it offers', async () => {
    for (const t of [NORTE, SUL]) {
      const r = await (agents[t.id] as Agent).afd.export({ from: DAY, to: DAY, target: { kind: 'download' } });
      expect(r).toMatchObject({ ok: true, fileName: t.name, firstNsr: 1, terminal: t.id });
    }
  });
});
