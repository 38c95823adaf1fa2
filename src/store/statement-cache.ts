import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';

/**
 * Statements prepared once per connection, for helpers that take a connection per call (readSetting,
 * archivedThrough): preparing parses the SQL again each time, which on the punch's path (its receipt) cost more than
 * the read. Kept as long as the connection object lives; a closed connection's statements go with it.
 */
const prepared = new WeakMap<Db, Map<string, Statement>>();

export function cachedStatement(db: Db, sql: string): Statement {
  let byText = prepared.get(db);
  if (!byText) {
    byText = new Map();
    prepared.set(db, byText);
  }
  let s = byText.get(sql);
  if (!s) {
    s = db.prepare(sql);
    byText.set(sql, s);
  }
  return s;
}
