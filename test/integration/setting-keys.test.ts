/** Typed settings keys on a real SQLite file: reading parses, writing validates, unreadable reads as absent. */
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DurableDb as Db } from '../../src/store/database.js';
import { settingKeys } from '../../src/store/settings/setting-keys.js';
import { deleteSetting, readSetting, writeSetting } from '../../src/store/settings/settings.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});
function db(): Db {
  const t = tempDir();
  const d = openDatabase(t.dir);
  cleanups.push(t.cleanup, () => d.close());
  return d;
}
const storeRaw = (d: Db, key: string, value: string) =>
  d
    .prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
    .run(key, value);

describe('settings keys', () => {
  it('a value written is read back as written, fields this version does not know included', () => {
    const d = db();
    const site = { id: 'a'.repeat(24), name: 'Unidade 1', timezone: 'America/Sao_Paulo' };
    writeSetting(d, settingKeys.site, site);
    expect(readSetting(d, settingKeys.site)).toEqual(site);
    storeRaw(d, 'site', JSON.stringify({ ...site, region: 'sul' }));
    expect(readSetting(d, settingKeys.site)).toEqual({ ...site, region: 'sul' });
  });

  it("absent, not JSON, or JSON of another shape reads as the key's fallback", () => {
    const d = db();
    expect(readSetting(d, settingKeys.lastError)).toBeNull();
    expect(readSetting(d, settingKeys.readers)).toEqual([]);
    storeRaw(d, 'last_error', '{not json');
    expect(readSetting(d, settingKeys.lastError)).toBeNull();
    storeRaw(d, 'last_error', JSON.stringify({ at: 'yesterday', message: 1 }));
    expect(readSetting(d, settingKeys.lastError)).toBeNull();
    storeRaw(d, 'readers', JSON.stringify({ name: 'not a list' }));
    expect(readSetting(d, settingKeys.readers)).toEqual([]);
  });

  it('a roster sync record of an older version (without the later members) still reads', () => {
    const d = db();
    const old = { at: 1, ok: true, employees: 3, error: null, lastOkAt: 1 };
    storeRaw(d, 'roster_sync', JSON.stringify(old));
    expect(readSetting(d, settingKeys.rosterSync)).toEqual(old);
  });

  it('a value that does not fit is not written, and the error names the fields, never the value', () => {
    const d = db();
    writeSetting(d, settingKeys.siteOverride, { siteId: 'b'.repeat(24), setAt: 5, demo: false });
    const bad = { siteId: 'secret-site-value', setAt: 'soon', demo: false } as unknown as {
      siteId: string;
      setAt: number;
      demo: boolean;
    };
    let message = '';
    try {
      writeSetting(d, settingKeys.siteOverride, bad);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/settings_site.*setAt/);
    expect(message).not.toContain('secret-site-value');
    expect(message).not.toContain('soon');
    expect(readSetting(d, settingKeys.siteOverride)).toEqual({ siteId: 'b'.repeat(24), setAt: 5, demo: false });
  });

  it('null clears a record; deleting forgets it', () => {
    const d = db();
    writeSetting(d, settingKeys.authRefused, { at: 1, reason: 'revoked' });
    writeSetting(d, settingKeys.authRefused, null);
    expect(readSetting(d, settingKeys.authRefused)).toBeNull();
    writeSetting(d, settingKeys.tokenSaved, { setAt: 1, source: 'file', warning: null });
    deleteSetting(d, settingKeys.tokenSaved);
    expect(d.prepare('SELECT count(*) FROM settings WHERE key = ?').pluck().get('settings_token')).toBe(0);
  });
});
