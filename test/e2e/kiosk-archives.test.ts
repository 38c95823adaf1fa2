/**
 * The journal's monthly archives on the real admin screen (Chromium, web bridge, real agent; issue
 * 26 item 9): a data directory whose January to March left the database for sealed archives, one of
 * them since lost; the journal's tab shows the months archived, their size and the last run, and
 * names the missing archive as a warning; axe-core finds nothing on the tab.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { archiveJournal } from '../../src/agent/journal/journal-archiver.js';
import { localDateTime } from '../../src/domain/time/local-time.js';
import { archiveDataFile } from '../../src/domain/punch/journal-archive-format.js';
import { ARCHIVE_DIR_NAME } from '../../src/store/journal/journal-archive.js';
import { recordArchivePass } from '../../src/store/upkeep/journal-archive-summary.js';
import { axeFindings } from '../helpers/axe.js';
import { openJournalled, ZONE } from '../helpers/journal.js';
import { screenshotPath } from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { openAdmin } from '../helpers/screen-actions.js';
import { tempDir } from '../helpers/temp.js';

const SMALL = { width: 800, height: 480 };
const rigs = kioskRigPerTest();
/** Data directories go after the file's agents closed (afterEach of kioskRigPerTest). */
const dirs: Array<() => void> = [];
afterAll(() => dirs.forEach((cleanup) => cleanup()));

/** 2026-01-05 09:00 São Paulo; a mark every 4 h until the end of March, each with its 'delivered' fact. */
const START = Date.parse('2026-01-05T12:00:00Z');
const END = Date.parse('2026-04-01T03:00:00Z');
/** When the archiving ran: January to March are past the 90-day horizon. */
const ARCHIVED_AT = Date.parse('2026-07-20T12:00:00Z');

/** A data directory as a terminal leaves it: three months archived, February's data file since lost. */
async function archivedDataDir(dir: string): Promise<{ lost: string }> {
  const { db, journal } = openJournalled(dir);
  try {
    db.transaction(() => {
      for (let at = START, i = 0; at < END; at += 4 * 3_600_000, i++) {
        const local = localDateTime(at, ZONE);
        const nsr = journal.reserveNsr(1_000);
        journal.appendMark({
          nsr,
          at,
          localDate: local.date,
          localTime: local.time,
          zone: ZONE,
          recordedAt: at,
          cpf: '529.982.247-25',
          punchId: i + 1,
        });
        journal.facts.append(
          nsr,
          at + 60_000,
          'delivered',
          `65f0a1b2c3d4e5f6a7b8c9${String(i % 100).padStart(2, '0')}`,
        );
      }
    }).immediate();
    journal.settle();
    const r = await archiveJournal({
      db,
      settings: { archiveAfterDays: 90, keepYears: 5 },
      now: () => ARCHIVED_AT,
      mono: () => performance.now(),
      signer: () => null,
      pause: () => new Promise((done) => setImmediate(done)),
      stopped: () => false,
    });
    expect(r.archives.map((a) => a.slice(0, 7))).toEqual(['2026-01', '2026-02', '2026-03']);
    recordArchivePass(db, {
      at: ARCHIVED_AT,
      outcome: 'done',
      archives: r.archives.length,
      marks: r.marks,
      removed: 0,
      error: null,
    });
    const lost = r.archives[1] as string;
    fs.rmSync(path.join(dir, ARCHIVE_DIR_NAME, archiveDataFile(lost)));
    return { lost };
  } finally {
    db.close();
  }
}

describe('the journal archives on the admin screen', () => {
  it('800×480: the months archived, their size and the last run, and the missing archive as a warning; axe finds nothing', async () => {
    const t = tempDir();
    dirs.push(t.cleanup);
    const { lost } = await archivedDataDir(t.dir);
    const r = await rigs.start({ dataDir: t.dir });
    const { page, problems } = await r.open(SMALL);
    await openAdmin(page, 'receipt');
    const panel = page.locator('[data-testid=archives-panel]');
    await panel.scrollIntoViewIfNeeded();
    await page.waitForSelector('[data-testid=archives-months]');
    expect((await page.textContent('[data-testid=archives-months]'))?.trim()).toBe('3 meses (2026-01 a 2026-03)');
    // Two archives left on the disk (data, seal), the lost one's seal: some kilobytes, in decimal MB.
    expect((await page.textContent('[data-testid=archives-size]'))?.trim()).toMatch(/^0(,\d\d?)? MB$/);
    expect((await page.textContent('[data-testid=archives-last-run]'))?.trim()).toMatch(
      /^20\/07\/2026,? \d{2}:\d{2}:\d{2}: 3 gravados, \d+ marcações$/,
    );
    const warning = page.locator('[data-testid=archives-problem]');
    expect(await warning.count()).toBe(1);
    expect((await warning.textContent())?.trim()).toBe(
      `ARQUIVO AUSENTE: ${lost} (suas marcações já saíram do banco; restaure o arquivo de uma cópia)`,
    );
    expect(await warning.getAttribute('role')).toBe('alert');
    await warning.scrollIntoViewIfNeeded();
    const b = await warning.boundingBox();
    expect(b && b.y >= 0 && b.y + b.height <= SMALL.height && b.x + b.width <= SMALL.width).toBe(true);
    await page.screenshot({ path: screenshotPath('admin-archives-800x480') });
    expect(await axeFindings(page, 'journal tab with archives')).toEqual([]);
    expect(problems.filter((p) => /Content Security Policy|Uncaught|TypeError/i.test(p))).toEqual([]);
  });
});
