/**
 * A full disk as the manager sees it (issue 27 item 6): the data directory on a real small tmpfs
 * that fills; two workers are told their punch was not registered; the admin queue tab says how
 * many punches could not be saved and when, and that space is low, in Debian's Chromium through
 * the web bridge. Space freed: the next punch registers, the count of refused ones stays (those
 * workers must be seen to). Screenshot in test-artifacts/screenshots/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { screenshotPath } from '../helpers/kiosk-browser.js';
import { punch, scriptProblems, SMALL, text } from '../helpers/kiosk-delivery.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { dismissResult, openAdmin, pressKeys, waitScreen } from '../helpers/screen-actions.js';
import { fillDisk, smallDisk } from '../helpers/small-disk.js';

const rigs = kioskRigPerTest();
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});

describe('a full disk on the admin screen (Chromium, web bridge)', () => {
  it('punches refused for want of space are counted with the last time on the queue tab, with the free space', async () => {
    const disk = smallDisk(cleanups);
    const r = await rigs.start({ dataDir: path.join(disk, 'data') });
    const { page, problems } = await r.open(SMALL);
    await punch(page, '1001', 'keypad');
    fillDisk(path.join(disk, 'filler'));

    // A different worker each time (a repeat is answered without a write): the first ones may still
    // fit in space SQLite already holds (its write-ahead log is reused after a checkpoint).
    let refused = 0;
    for (let i = 0; i < 20 && refused < 2; i++) {
      await page.click('[data-testid=open-keypad]');
      await waitScreen(page, 'keypad');
      await pressKeys(page, String(1002 + i));
      await page.click('[data-testid=key-ok]');
      await waitScreen(page, 'result');
      if ((await page.getAttribute('[data-testid=result]', 'data-ok')) === 'false') refused++;
      await dismissResult(page);
    }
    expect(refused).toBe(2);
    // The manager's PIN still opens the admin screen on a full disk (its attempt cannot be written).

    await openAdmin(page, 'queue');
    const alert = page.locator('section[data-testid=storage-alert]');
    await alert.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(await text(page, '[data-testid=storage-refused]')).toMatch(
      /^Disco cheio: 2 registros não puderam ser salvos \(o último em .+\)\. Libere espaço no terminal agora\.$/,
    );
    expect(await text(page, '[data-testid=storage-low]')).toMatch(/^Pouco espaço livre no terminal: 0 MB\./);
    await page.screenshot({ path: screenshotPath('admin-queue-disk-full-800x480') });

    fs.rmSync(path.join(disk, 'filler'));
    expect((await r.agent.punch({ kind: 'id', value: '1003' })).ok).toBe(true);
    // Space is back (a few MB of this 4 MiB disk: still low): the line follows the status; the refused
    // count stays for the manager, whose workers were told their punch was not registered.
    const low = page.locator('[data-testid=storage-low]');
    await expect.poll(async () => (await low.textContent()) ?? '', { timeout: 10_000 }).toMatch(/: [1-9]\d* MB\./);
    expect(await text(page, '[data-testid=storage-refused]')).toContain('2 registros');
    expect(scriptProblems(problems)).toEqual([]);
  });
});
