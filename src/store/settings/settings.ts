import type { Db, WritableDb } from '../database.js';
import { cachedStatement } from '../statement-cache.js';
import type { SettingKey } from './setting-keys.js';

/**
 * A setting's value as its key declares it; the key's fallback when it is absent or unreadable
 * (not JSON, or JSON of another shape, e.g. stored by an earlier version): unreadable reads as absent.
 */
export function readSetting<T>(db: Db, key: SettingKey<T>): T {
  const row = cachedStatement(db, 'SELECT value FROM settings WHERE key = ?').get(key.name) as
    { value: string } | undefined;
  if (!row) return key.fallback;
  let raw: unknown;
  try {
    raw = JSON.parse(row.value);
  } catch {
    return key.fallback;
  }
  const parsed = key.schema.safeParse(raw);
  return parsed.success ? parsed.data : key.fallback;
}

/** Stores a value its key's schema accepts; throws (naming the key and the fields, never the value) otherwise. */
export function writeSetting<T>(db: WritableDb, key: SettingKey<T>, value: T): void {
  const checked = key.schema.safeParse(value);
  if (!checked.success) {
    const fields = [...new Set(checked.error.issues.map((i) => i.path.join('.') || '(value)'))].join(', ');
    throw new Error(`setting ${key.name} not written: ${fields} do not fit its schema`);
  }
  db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(key.name, JSON.stringify(value));
}

/** Forgets a setting: it reads as its fallback again. */
export function deleteSetting(db: WritableDb, key: SettingKey<unknown>): void {
  db.prepare('DELETE FROM settings WHERE key = ?').run(key.name);
}
