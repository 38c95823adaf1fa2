/**
 * The worker's PDF receipt (Portaria 671 Art. 80), read by tools that are not ours: the PDF opened
 * by poppler's `pdftotext` (Debian poppler-utils) shows every Art. 79 item with its accents and the
 * worker's whole CPF; its detached CAdES signature verifies with `openssl cms -verify` and fails
 * for a changed byte; the files are 0600, found by NSR, kept 48 hours by the injected clock and then
 * removed; `timeclock receipt NSR --pdf` writes the kept copy.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { inProcess } from '../helpers/cli.js';
import { buildReceipt, type ReceiptSettings } from '../../src/agent/receipts/receipt.js';
import { ReceiptFiles } from '../../src/agent/receipts/receipt-files.js';
import { receiptPdf } from '../../src/agent/receipts/receipt-pdf.js';
import { runReceipt } from '../../src/cli/evidence/receipt.js';
import { makeP12 } from '../helpers/afd.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('timeclock-receipt-pdf-');
afterAll(() => tmp.cleanup());

const HASH = '3f1c9a0b5e7d2468ace13579bdf02468ace13579bdf02468ace13579bdf0246a';
const LINE = `0000000427${'2026-03-14T07:58:00-0300'}012345678909${'2026-03-14T07:58:00-0300'}040${HASH}`;
const settings: ReceiptSettings = {
  terminalId: 'obra-centro-01',
  employer: { name: 'Construtora São João Ltda', cnpj: '11222333000181' },
  cno: '12345678901234',
  repRegistration: '5120230012345',
  workplace: 'Obra Centro — Praça da Sé, 100, São Paulo/SP',
};
const receipt = buildReceipt(
  LINE,
  {
    capturedAt: Date.parse('2026-03-14T10:58:31.400Z'),
    timeZone: 'America/Sao_Paulo',
    employeeName: 'Conceição Araújo Gonçalves',
  },
  settings,
);

const pdftotext = (file: string): string =>
  execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
const cmsVerify = (pdf: string, p7s: string) =>
  spawnSync(
    'openssl',
    ['cms', '-verify', '-binary', '-inform', 'DER', '-in', p7s, '-content', pdf, '-noverify', '-out', '/dev/null'],
    { encoding: 'utf8' },
  );

describe('the PDF receipt', () => {
  it('opens in pdftotext with every Art. 79 item, accents and the worker’s whole CPF', () => {
    const file = path.join(tmp.dir, 'r.pdf');
    fs.writeFileSync(file, receiptPdf(receipt));
    const text = pdftotext(file);
    for (const item of [
      'Comprovante de Registro de Ponto do Trabalhador',
      'NSR 000000042',
      'Data e hora: 14/03/2026 07:58:31 (UTC-03:00)',
      'Nome: Conceição Araújo Gonçalves',
      'CPF: 123.456.789-09',
      'Nome: Construtora São João Ltda',
      'CNPJ: 11.222.333/0001-81',
      'CNO/CAEPF: 12345678901234',
      'Local de trabalho: Obra Centro — Praça da Sé, 100, São Paulo/SP',
      'REP-P, registro no INPI: 5120230012345',
      'Terminal: obra-centro-01',
      HASH.slice(0, 32),
      HASH.slice(32),
    ]) {
      expect(text).toContain(item);
    }
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    expect(info).toMatch(/PDF version:\s+1\.4/);
    expect(info).toMatch(/Pages:\s+1/);
    // The screen keeps the CPF masked; the QR text (the worker's copy) carries it whole.
    expect(receipt.cpf).toBe('***.456.789-**');
    expect(receipt.text).toContain('CPF: 123.456.789-09');
  });

  it('is kept 0600 with a detached CAdES signature OpenSSL verifies, found by NSR, and removed after keepHours', async () => {
    const keys = path.join(tmp.dir, 'keys');
    fs.mkdirSync(keys);
    const { p12 } = makeP12(keys, 'segredo');
    const dataDir = path.join(tmp.dir, 'data');
    const clock = { t: Date.parse('2026-03-14T10:58:32Z') };
    const warn = vi.fn();
    const files = new ReceiptFiles({
      dataDir,
      keepHours: 48,
      afd: { signingKey: p12, signingKeyPassword: 'segredo' },
      now: () => clock.t,
      log: { warn, info: () => undefined },
    });
    const kept = await files.keep(receipt);
    expect(warn).not.toHaveBeenCalled();
    expect(kept?.p7s).toBe(`${kept?.pdf}.p7s`);
    const { pdf, p7s } = kept as { pdf: string; p7s: string };
    expect(fs.statSync(pdf).mode & 0o777).toBe(0o600);
    expect(fs.statSync(p7s).mode & 0o777).toBe(0o600);
    expect(cmsVerify(pdf, p7s).status).toBe(0);
    const changed = path.join(tmp.dir, 'changed.pdf');
    const bytes = fs.readFileSync(pdf);
    bytes[bytes.indexOf('Conceição'.slice(0, 4)) + 1] ^= 0x01;
    fs.writeFileSync(changed, bytes);
    expect(cmsVerify(changed, p7s).status).not.toBe(0);

    expect(files.find(42)).toEqual(kept);
    expect(await files.keep(receipt)).toEqual(kept); // once per NSR
    clock.t += 47 * 3_600_000;
    expect(files.prune()).toBe(0);
    expect(files.find(42)).not.toBeNull();
    clock.t += 1 * 3_600_000 + 1;
    expect(files.prune()).toBe(1);
    expect(files.find(42)).toBeNull();
    expect(fs.readdirSync(files.dir)).toEqual([]);
  });

  it('keeps a receipt a punch from one listing of the folder, not one a punch; one removed by hand is made again', async () => {
    const dataDir = path.join(tmp.dir, 'many');
    const files = new ReceiptFiles({
      dataDir,
      keepHours: 48,
      afd: {},
      now: () => Date.parse('2026-03-14T10:58:32Z'),
      log: { warn: () => undefined, info: () => undefined },
    });
    const ofNsr = (n: number) => buildReceipt(`${String(n).padStart(9, '0')}${LINE.slice(9)}`, null, settings);
    const listings = vi.spyOn(fs, 'readdirSync');
    try {
      for (let n = 1; n <= 40; n++) expect(await files.keep(ofNsr(n))).not.toBeNull();
      // The listing grew with the receipts kept and was read at every punch (48 hours of them at a site).
      expect(listings.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      listings.mockRestore();
    }
    expect(fs.readdirSync(files.dir)).toHaveLength(40);
    const seventh = files.find(7) as { pdf: string };
    expect(path.basename(seventh.pdf)).toMatch(/^000000007-\d+\.pdf$/);
    fs.rmSync(seventh.pdf);
    expect(files.find(7)).toBeNull();
    const again = await files.keep(ofNsr(7));
    expect(fs.existsSync(again?.pdf as string)).toBe(true);
    expect(files.find(7)).toEqual(again);
  });

  it('timeclock receipt NSR --pdf writes the receipt’s PDF, 0600, never over a file', async () => {
    const { punchedTerminal, EMPLOYER } = await import('../helpers/afd.js');
    const { DEMO_SITE_ID } = await import('../../src/mock/seed.js');
    const cleanups: Array<() => Promise<void> | void> = [];
    try {
      const dataDir = path.join(tmp.dir, 'cli-data');
      const { agent } = await punchedTerminal(dataDir, [{ date: '2026-08-03', time: '08:01', id: '1001' }], cleanups, {
        settings: { siteId: DEMO_SITE_ID },
      });
      await vi.waitFor(() =>
        expect(fs.readdirSync(path.join(dataDir, 'receipts')).filter((f) => f.endsWith('.pdf'))).toHaveLength(1),
      );
      await agent.stop();
      const config = path.join(tmp.dir, 'cli.json');
      fs.writeFileSync(config, JSON.stringify({ dataDir, employer: EMPLOYER }));
      const out = path.join(tmp.dir, 'comprovante.pdf');
      const first = await inProcess(() => runReceipt({ config, pdf: true, out }, ['1']));
      const second = await inProcess(() => runReceipt({ config, pdf: true, out }, ['1']));
      const [code, again, stdout] = [first.code, second.code, first.stdout + second.stdout];
      expect(code).toBe(0);
      expect(stdout).toContain('the copy kept since the punch');
      expect(again).toBe(1);
      expect(fs.statSync(out).mode & 0o777).toBe(0o600);
      const text = pdftotext(out);
      expect(text).toContain('Comprovante de Registro de Ponto do Trabalhador');
      expect(text).toContain('NSR 000000001');
      expect(text).toContain('Nome: Ana Paula Ferreira da Silva');
      expect(text).toContain('Nome: RELOJOARIA SÃO JOÃO LTDA');
      // The place of work: the site's name as the service gave it (no receipt.workplace configured).
      expect(text).toContain('Local de trabalho: Obra Centro — São Paulo');
    } finally {
      while (cleanups.length) await cleanups.pop()?.();
    }
  });
});
