/**
 * The admin screen's AFD tab in Chromium on the web bridge of a real agent: a punch, then the
 * manager exports this month so far as a download and gets the file the verifier accepts, named
 * as the Annex says; without the employer configured the screen says which settings are missing.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { verifyAfd } from '../../src/domain/afd/verify.js';
import { sha256Latin1 } from '../../src/store/journal/journal-facts.js';
import { EMPLOYER, TERMINAL, TERMINAL_NAME as ANNEX_NAME } from '../helpers/afd.js';
import { fakeDrive } from '../helpers/fake-drive.js';
import { screenshotPath } from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { openAdmin } from '../helpers/screen-actions.js';
import { tempDir } from '../helpers/temp.js';

const SMALL = { width: 800, height: 480 };
const rigs = kioskRigPerTest();
const text = async (page: Page, testid: string) => ((await page.textContent(`[data-testid=${testid}]`)) ?? '').trim();

/** Today in São Paulo, as the agent's site zone (the config's) counts days. */
const today = (): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());

describe('AFD export on the admin screen (Chromium, web bridge)', () => {
  it('exports this month so far as a download: the file is the Annex’s, with the punch, and verifies', async () => {
    const r = await rigs.start({ settings: { employer: EMPLOYER, terminalId: TERMINAL } });
    expect((await r.agent.punch({ kind: 'id', value: '1001' })).ok).toBe(true);
    const { page, problems } = await r.open(SMALL);
    await openAdmin(page, 'queue');
    await page.click('[data-testid=tab-afd]');
    await page.waitForSelector('[data-testid=afd-target-download]');
    expect(await page.inputValue('[data-testid=afd-from]')).toBe(`${today().slice(0, 8)}01`);
    expect(await page.inputValue('[data-testid=afd-to]')).toBe(today());
    expect(await page.isChecked('[data-testid=afd-target-download]')).toBe(true);
    expect(await text(page, 'afd-note')).toContain('sem assinatura');
    expect(await text(page, 'afd-missing')).toBe('');
    await page.screenshot({ path: screenshotPath('admin-afd-start-800x480') });

    await page.click('[data-testid=afd-export]');
    await page.waitForSelector('[data-testid=afd-download-file]');
    expect(await text(page, 'admin-message')).toBe('AFD pronto, marcações: 1. Baixe-o abaixo.');
    expect(await text(page, 'afd-file')).toBe(ANNEX_NAME);
    expect(await text(page, 'afd-terminal')).toContain(TERMINAL); // each terminal numbers its own NSRs
    expect(await text(page, 'afd-marks')).toBe('1');
    await page.screenshot({ path: screenshotPath('admin-afd-800x480') });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid=afd-download-file]'),
    ]);
    expect(download.suggestedFilename()).toBe(ANNEX_NAME);
    const saved = await download.path();
    const content = fs.readFileSync(saved, 'latin1');
    expect(verifyAfd(content, sha256Latin1)).toMatchObject({ ok: true, counts: { 7: 1 }, signature: 'unsigned' });
    expect(content.slice(39, 63)).toBe('RELOJOARIA SÃO JOÃO LTDA'); // positions 040-063
    await page.waitForSelector('[data-testid=admin-message][data-tone=ok]:has-text("Baixado: ")');
    expect(problems.filter((p) => /Content Security Policy|Uncaught|TypeError/i.test(p))).toEqual([]);
  });

  it('says which settings the AFD header lacks, and the export’s refusal names them', async () => {
    const r = await rigs.start();
    const { page } = await r.open(SMALL);
    await openAdmin(page, 'queue');
    await page.click('[data-testid=tab-afd]');
    await page.waitForSelector('[data-testid=afd-missing]:not(:empty)');
    expect(await text(page, 'afd-missing')).toBe(
      'O AFD identifica o empregador: defina employer.name, employer.cnpj (or employer.cpf) na configuração antes.',
    );
    await page.click('[data-testid=afd-export]');
    await page.waitForSelector('[data-testid=admin-message][data-tone=error]');
    expect(await text(page, 'admin-message')).toBe(
      'O AFD não pode ser gerado: falta na configuração employer.name, employer.cnpj (or employer.cpf).',
    );
  });

  it('after an export to a USB drive offers to remove it safely, and says so when it cannot', async () => {
    // A drive the agent lists (a fake /proc/mounts and /sys) whose mount point is a plain
    // directory: the export lands there, and the unmount that follows really runs and fails.
    const t = tempDir();
    try {
      const { path: stick, roots } = fakeDrive(t.dir);
      const r = await rigs.start({ settings: { employer: EMPLOYER, terminalId: TERMINAL }, afdDrives: roots });
      expect((await r.agent.punch({ kind: 'id', value: '1001' })).ok).toBe(true);
      const { page, problems } = await r.open(SMALL);
      await openAdmin(page, 'queue');
      await page.click('[data-testid=tab-afd]');
      await page.waitForSelector('[data-testid=afd-target-drive]');
      expect(await page.isChecked('[data-testid=afd-target-drive]')).toBe(true);
      await page.click('[data-testid=afd-export]');
      await page.waitForSelector('[data-testid=afd-unmount]');
      expect(await text(page, 'admin-message')).toMatch(/^AFD gravado em sdb1/);
      expect(fs.readdirSync(stick)).toEqual([expect.stringMatching(/^AFD_/)]);
      await page.screenshot({ path: screenshotPath('admin-afd-drive-800x480') });

      await page.click('[data-testid=afd-unmount]');
      await page.waitForSelector('[data-testid=admin-message][data-tone=error]');
      expect(await text(page, 'admin-message')).toMatch(
        /^Não foi possível remover o pendrive sdb1 com segurança \(umount: .*not mounted.*\)\. Aguarde/,
      );
      expect(await page.isEnabled('[data-testid=afd-unmount]')).toBe(true);
      expect(problems.filter((p) => /Content Security Policy|Uncaught|TypeError/i.test(p))).toEqual([]);
    } finally {
      t.cleanup();
    }
  });
});
