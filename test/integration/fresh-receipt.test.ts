/**
 * A punch's answer carries a receipt made from what its capture sealed (agent/receipts/fresh-marks.ts), not read back
 * from the journal: it must be the very receipt the journal gives for that NSR afterwards, in every case a punch is
 * answered with one (anchored or not, held, another employer's chain, a matched unknown code).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SealedPunch } from '../../src/agent/capture/capture.js';
import { FreshMarks } from '../../src/agent/receipts/fresh-marks.js';
import type { ReceiptEvidence } from '../../src/agent/receipts/receipts.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { demoSeed, type MockEmployee } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

describe("the receipt with a punch's answer", () => {
  it('is the receipt the journal gives for its NSR afterwards, whatever the punch', async () => {
    const seed = demoSeed();
    const notAllowed = seed.employees.find((e) => e.external_id === '1003') as MockEmployee;
    notAllowed.contract_data = { ...notAllowed.contract_data, allow_external_api_record: false };
    let t = Date.parse('2026-03-02T11:00:07.250Z');
    const clock = { now: () => t };
    const mock = await startMockServer({ rateLimit: { limit: 60, windowMs: 1_000 }, seed, clock });
    cleanups.push(() => mock.close());
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const agent = testAgent({
      dataDir: dir.dir,
      mock,
      clock,
      settings: {
        identity: { unknown: 'accept-and-resolve' },
        pin: { requiredFor: ['badge'], maxFailures: 5 },
        employer: { name: 'Construtora Exemplo Ltda', cnpj: '11222333000181' },
      },
    });
    cleanups.push(() => agent.stop());
    await agent.start({ awaitRosterIfEmpty: true });

    const answers = [
      await agent.punch({ kind: 'id', value: '1001' }), // the configured employer
      await agent.punch({ kind: 'id', value: '1003' }), // held: the service may not take it
      await agent.punch({ kind: 'id', value: '1030' }), // the subcontractor's chain
      await agent.forgotPin({ credential: { kind: 'badge', value: '1004' } }), // awaiting the manager
    ];
    t += 61_000;
    answers.push(await agent.punch({ kind: 'id', value: '1001' })); // a second punch of the day

    expect(answers.map((a) => (a.ok ? a.receipt?.nsr : a.reason))).toEqual([
      '000000001',
      '000000002',
      '000000003',
      '000000004',
      '000000005',
    ]);
    for (const a of answers) {
      if (!a.ok || !a.receipt) throw new Error(`no receipt: ${JSON.stringify(a)}`);
      expect(a.receipt).toEqual(agent.receipt(Number(a.receipt.nsr)));
    }
    // Another boot that has not heard the service yet: the time is the terminal's own, to be confirmed.
    await agent.stop();
    const offline = testAgent({ dataDir: dir.dir, mock: { url: 'http://127.0.0.1:9/v2.1' }, clock, bootId: 'boot-2' });
    cleanups.push(() => offline.stop());
    await offline.start({ roster: false });
    t += 61_000;
    const unconfirmed = await offline.punch({ kind: 'id', value: '1002' });
    if (!unconfirmed.ok || !unconfirmed.receipt) throw new Error(`no receipt: ${JSON.stringify(unconfirmed)}`);
    expect(unconfirmed.receipt).toMatchObject({ nsr: '000000006', timeToConfirm: true });
    expect(unconfirmed.receipt).toEqual(offline.receipt(6));

    const held = answers[3];
    expect(held?.ok && held.receipt?.awaitingConfirmation).toBe(true);
    const sub = answers[2];
    expect(sub?.ok && sub.receipt?.employer.cnpj).not.toBe('11222333000181');
  });
});

describe('fresh marks', () => {
  const sealed = (nsr: number): SealedPunch => ({
    nsr,
    line: `line ${nsr}`,
    chain: '',
    capturedAt: 1_772_449_207_250,
    timeZone: 'America/Sao_Paulo',
    employeeName: 'Maria',
    localDate: '2026-03-02',
    localTime: '08:00',
    anchored: true,
    heldReason: null,
  });
  const stored = (reads: number[]) => ({
    byNsr: (nsr: number): ReceiptEvidence | null => {
      reads.push(nsr);
      return { line: `stored ${nsr}`, punch: null };
    },
  });

  it('answer a fresh NSR once from memory; a later look-up reads the journal', () => {
    const fresh = new FreshMarks();
    const reads: number[] = [];
    const source = fresh.over(stored(reads));
    fresh.remember(sealed(7));
    expect(source.byNsr(7)?.line).toBe('line 7');
    expect(reads).toEqual([]);
    expect(source.byNsr(7)?.line).toBe('stored 7');
    expect(reads).toEqual([7]);
  });

  it('keep only the last few: one never answered is not kept for ever', () => {
    const fresh = new FreshMarks();
    const reads: number[] = [];
    const source = fresh.over(stored(reads));
    for (let nsr = 1; nsr <= 20; nsr++) fresh.remember(sealed(nsr));
    expect(source.byNsr(1)?.line).toBe('stored 1');
    expect(source.byNsr(20)?.line).toBe('line 20');
  });
});
