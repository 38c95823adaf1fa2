import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { statusText } from '../../src/cli/status/format.js';
import { cpfFromBase } from '../../src/domain/people/cpf.js';
import { DB_FILE_NAME } from '../../src/store/database.js';
import { JournalReader } from '../../src/store/journal/journal-read.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { demoSeed, type MockEmployee } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { dropJournalTriggers } from '../helpers/journal.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function setup(
  settings: Record<string, unknown>,
  clock: { now(): number },
): Promise<{ mock: MockServer; agent: Agent; dir: string; read: () => { reader: JournalReader; close(): void } }> {
  const seed = demoSeed();
  const notAllowed = seed.employees.find((e) => e.external_id === '1003') as MockEmployee;
  notAllowed.contract_data = { ...notAllowed.contract_data, allow_external_api_record: false };
  const mock = await startMockServer({ rateLimit: { limit: 60, windowMs: 1_000 }, seed, clock });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const agent = testAgent({ dataDir: t.dir, mock, settings, clock });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  const read = () => {
    const db = new Database(path.join(t.dir, DB_FILE_NAME), { readonly: true });
    return { reader: new JournalReader(db), close: () => db.close() };
  };
  return { mock, agent, dir: t.dir, read };
}

describe('every punch the agent takes gets its mark, and its answer carries the NSR', () => {
  it('known, held (not allowed), unknown and later matched, and a repeat (the earlier NSR); delivery is a fact', async () => {
    let t = Date.parse('2026-03-02T11:00:00Z');
    const { mock, agent, read } = await setup({ identity: { unknown: 'accept-and-resolve' } }, { now: () => t });
    const ana = await agent.punch({ kind: 'id', value: '1001' });
    expect(ana).toMatchObject({ ok: true, nsr: 1, repeat: false });
    expect(await agent.punch({ kind: 'id', value: '1001' })).toMatchObject({ ok: true, nsr: 1, repeat: true });
    expect(await agent.punch({ kind: 'id', value: '1003' })).toMatchObject({
      ok: true,
      nsr: 2,
      note: 'held_not_allowed',
    });
    t += 60_000;
    expect(await agent.punch({ kind: 'id', value: 'NEW-77' })).toMatchObject({
      ok: true,
      nsr: 3,
      punchId: null,
      note: 'unknown_code',
    });
    expect(agent.status().journal).toMatchObject({
      nextNsr: 4,
      journalId: expect.stringMatching(/^[0-9a-f]{32}$/),
      lastVerify: null,
    });

    const template = mock.employees()[0] as MockEmployee;
    const cpf = cpfFromBase('111444777');
    mock.addEmployees([
      { ...template, _id: 'aaaaaaaaaaaaaaaaaaaaaa77', external_id: 'NEW-77', full_name: 'Nova Pessoa', cpf },
    ]);
    await agent.syncRoster();
    // Delivered on both sides: the service has them and the terminal has written down their answers
    // (the 'delivered' facts come with that write, a moment after the service's record).
    await waitFor(
      () => mock.records().length === 2 && agent.status().queue.sent === 2,
      'Ana and the matched punch delivered',
    );

    const { reader, close } = read();
    try {
      const line = (nsr: number) => reader.mark(nsr)?.line ?? '';
      expect(line(1).slice(34, 46)).toBe(`0${mock.employees().find((e) => e.external_id === '1001')?.cpf}`);
      expect(line(1)[72]).toBe('0'); // recorded in the journal as it was taken: on-line
      expect(line(3).slice(34, 46)).toBe('000000000000');
      const facts = (nsr: number) => reader.factsOf(nsr).map((f) => `${f.event}: ${f.detail}`);
      const delivered = (ext: string) => mock.records().find((r) => r.employee_external_id === ext)?._id;
      expect(facts(1)).toEqual([`delivered: ${delivered('1001')}`]);
      expect(facts(2)).toEqual(['held: not_allowed']);
      expect(facts(3)).toEqual([
        expect.stringMatching(new RegExp(`^resolved: employee aaaaaaaaaaaaaaaaaaaaaa77 cpf ${cpf}: punch \\d+$`)),
        `delivered: ${delivered('NEW-77')}`,
      ]);
    } finally {
      close();
    }
    expect(await agent.verifyJournal()).toMatchObject({ ok: true, marks: 3, facts: 4, problem: null });
    expect(agent.status().journal?.lastVerify).toMatchObject({ ok: true, marks: 3 });
    expect(statusText(agent.status())).toMatch(/^journal: +next NSR 4; chains verified \(.*3 marks, 4 facts\)$/m);
  });

  it("a punch whose PIN could not be checked is held with its mark; the manager's confirmation is a fact", async () => {
    const t = Date.parse('2026-03-02T11:00:00Z');
    const { agent, read } = await setup(
      { pin: { requiredFor: ['id'], maxFailures: 1, lockoutMs: 3_600_000 } },
      { now: () => t },
    );
    expect(await agent.admin.setPin('1014', '739146')).toMatchObject({ ok: true });
    // One wrong PIN locks (maxFailures 1): the punch is kept, held, unverified.
    const held = await agent.punch({ kind: 'id', value: '1014' }, { pin: '000001' });
    expect(held).toMatchObject({ ok: true, nsr: 1, note: 'held_pin_unverified' });
    expect(agent.decideHeld(held.ok ? (held.punchId ?? 0) : 0, 'resend', 'the manager')).toBe(true);
    const { reader, close } = read();
    expect(reader.factsOf(1).map((f) => f.event)).toEqual(['held', 'confirmed']);
    close();
  });

  it('a broken chain is reported in status and the log, and punching goes on', async () => {
    let t = Date.parse('2026-03-02T11:00:00Z');
    const { agent, dir } = await setup({}, { now: () => t });
    for (const ext of ['1001', '1002', '1004'])
      expect(await agent.punch({ kind: 'id', value: ext })).toMatchObject({ ok: true });
    const raw = new Database(path.join(dir, DB_FILE_NAME));
    dropJournalTriggers(raw);
    raw
      .prepare(`UPDATE journal_marks SET verbatim = substr(line, 1, 35) || '9' || substr(line, 37) WHERE nsr = 2`)
      .run();
    raw.close();

    const v = await agent.verifyJournal();
    expect(v).toMatchObject({
      ok: false,
      marks: 3,
      problem: { nsr: 2, message: expect.stringMatching(/hash does not match/) },
    });
    const st = agent.status();
    expect(st.journal?.lastVerify).toMatchObject({ ok: false, problem: { nsr: 2 } });
    expect(st.lastError?.message).toMatch(/evidence journal does not verify/);
    expect(statusText(st)).toMatch(/^JOURNAL DOES NOT VERIFY .*NSR 2: hash does not match.*punches are still taken/m);
    t += 60_000;
    expect(await agent.punch({ kind: 'id', value: '1005' })).toMatchObject({ ok: true, nsr: 4 });
  });
});
