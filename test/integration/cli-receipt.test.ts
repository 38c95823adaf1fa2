/**
 * `timeclock receipt <NSR> [--json]` on a data directory with punches (a real agent and its journal):
 * the receipt's lines, its fields as JSON, beside the running terminal and after it stopped; exit 1
 * with a clear message for an NSR the journal does not have, 2 for one that is not an NSR.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inProcess } from '../helpers/cli.js';
import type { PunchAnswer } from '../../src/agent/receipts/receipts.js';
import { runReceipt } from '../../src/cli/evidence/receipt.js';
import { UsageError, type CliOptions } from '../../src/cli/common/options.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (cleanups.length) await cleanups.pop()?.();
});

/** Runs the command in this process, with what it writes to stdout and stderr. */
/** `timeclock receipt` in this process (never --pdf here: the answer is a number at once). */
const receipt = (opts: CliOptions, args: string[]) => inProcess(() => runReceipt(opts, args) as number);

describe('timeclock receipt', () => {
  it('prints a punch’s receipt by its NSR, as text and as JSON, beside the running terminal and after it stopped', async () => {
    const mock = await startMockServer({ seed: demoSeed(), rateLimit: { limit: 60, windowMs: 1_000 } });
    cleanups.push(() => mock.close());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const evidence = {
      terminalId: 'obra-centro-01',
      employer: { name: 'Construtora Exemplo Ltda', cnpj: '11222333000181' },
      receipt: { portalUrl: 'https://portal.example.com.br/ponto' },
    };
    const agent = testAgent({ dataDir: t.dir, mock, settings: evidence });
    cleanups.push(() => agent.stop());
    await agent.start({ awaitRosterIfEmpty: true });
    const punched: Array<Extract<PunchAnswer, { ok: true }>> = [];
    for (const id of ['1001', '1002']) {
      const r = await agent.punch({ kind: 'id', value: id });
      if (!r.ok || r.nsr === null) throw new Error(`punch ${id} has no NSR: ${JSON.stringify(r)}`);
      punched.push(r);
    }
    const [ana, joao] = punched as [Extract<PunchAnswer, { ok: true }>, Extract<PunchAnswer, { ok: true }>];
    const config = path.join(t.dir, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ dataDir: t.dir, ...evidence }));

    // Beside the running terminal: a read-only reader, nothing taken over.
    const text = await receipt({ config }, [String(joao.nsr)]);
    expect(text).toMatchObject({ code: 0, stderr: '' });
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('Comprovante de Registro de Ponto do Trabalhador'); // Art. 79's title (issue 26)
    expect(lines).toContain(`NSR: ${String(joao.nsr).padStart(9, '0')}`);
    expect(lines).toContain('Trabalhador: João Carlos de Oliveira');
    expect(lines).toContain('CNPJ: 11.222.333/0001-81');
    expect(lines.at(-1)).toBe('Portal: https://portal.example.com.br/ponto');
    expect(lines.find((l) => l.startsWith('Data: '))).toMatch(
      /^Data: \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} UTC-03:00$/,
    );
    expect(lines.find((l) => l.startsWith('SHA-256: '))).toMatch(/^SHA-256: [0-9a-f]{64}$/);
    // The receipt's text; with a portal configured the screen's QR code carries the link with the NSR and hash (issue
    // 26).
    const shown = agent.receipt(joao.nsr as number);
    expect(text.stdout).toBe(`${shown?.text}\n`);
    expect(shown?.qrText).toBe(
      `https://portal.example.com.br/ponto?nsr=${String(joao.nsr).padStart(9, '0')}&sha256=${shown?.hash}`,
    );
    await agent.stop();

    const json = await receipt({ config, json: true }, [String(ana.nsr).padStart(9, '0')]);
    expect(json.code).toBe(0);
    const fields = JSON.parse(json.stdout) as Record<string, unknown>;
    const cpf = demoSeed().employees.find((e) => e.external_id === '1001')?.cpf ?? '';
    expect(fields).toMatchObject({
      nsr: String(ana.nsr).padStart(9, '0'),
      employeeName: 'Ana Paula Ferreira da Silva',
      cpf: `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`,
      terminalId: 'obra-centro-01',
      employer: { name: 'Construtora Exemplo Ltda', cnpj: '11.222.333/0001-81', cpf: null },
      portalUrl: 'https://portal.example.com.br/ponto',
      utcOffset: '-03:00',
    });
    expect(fields['time']).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    expect(fields['hash']).toMatch(/^[0-9a-f]{64}$/);
    expect(fields['qr']).toBeUndefined();
    expect(json.stdout).not.toContain(cpf);

    const missing = await receipt({ config }, ['999999']);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toBe(`timeclock: no punch with NSR 000999999 in ${t.dir}\n`);
    for (const bad of [[], ['0'], ['abc'], ['1000000000'], ['1', '2']])
      await expect(receipt({ config }, bad), JSON.stringify(bad)).rejects.toThrow(UsageError);
  });

  it('says so when the data directory has no terminal data', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const config = path.join(t.dir, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ dataDir: path.join(t.dir, 'none') }));
    const r = await receipt({ config }, ['1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no terminal data in .*none yet/);
  });
});
