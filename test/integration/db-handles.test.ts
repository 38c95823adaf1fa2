/**
 * The three kinds of connection. What each may be given is checked by the compiler (the
 * `@ts-expect-error` lines below fail `npm run typecheck` if a wrong handle were accepted); what
 * runs checks that the kinds are opened as their names say.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  openBookkeepingConnection,
  openDatabase,
  type BookkeepingDb,
  type DurableDb,
  type ReadOnlyDb,
} from '../../src/store/database.js';
import { Outbox } from '../../src/store/punches/outbox.js';
import { RateSlots } from '../../src/store/settings/rate-slots.js';
import { settingKeys } from '../../src/store/settings/setting-keys.js';
import { readSetting, writeSetting } from '../../src/store/settings/settings.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});

/** Never called: the compiler's half of the test. */
export function wrongHandles(durable: DurableDb, book: BookkeepingDb, reader: ReadOnlyDb): void {
  // @ts-expect-error a reader cannot write a setting
  writeSetting(reader, settingKeys.lastError, null);
  // @ts-expect-error the punch path takes only the durable connection
  new Outbox(book);
  // @ts-expect-error nor a reader
  new Outbox(reader);
  // @ts-expect-error the outbox's bookkeeping writes cannot go to a reader either
  new Outbox(durable, reader);
  // @ts-expect-error a reader takes no rate slots
  new RateSlots(reader);
  // Allowed: durable punches with bookkeeping transitions; any handle reads.
  new Outbox(durable, book);
  readSetting(reader, settingKeys.lastError);
}

describe('database handles', () => {
  it('durable is synchronous=FULL, bookkeeping NORMAL, and the read-only one refuses writes', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const durable = openDatabase(t.dir);
    const book = openBookkeepingConnection(t.dir);
    cleanups.push(
      () => durable.close(),
      () => book.close(),
    );
    expect(durable.pragma('synchronous', { simple: true })).toBe(2);
    expect(book.pragma('synchronous', { simple: true })).toBe(1);
    writeSetting(book, settingKeys.lastError, { at: 1, message: 'from bookkeeping' });
    const reader = openDatabase(t.dir, { readonly: true });
    cleanups.push(() => reader.close());
    expect(readSetting(reader, settingKeys.lastError)).toEqual({ at: 1, message: 'from bookkeeping' });
    const sneaked = reader as unknown as DurableDb;
    expect(() => writeSetting(sneaked, settingKeys.lastError, null)).toThrow(/readonly/i);
  });
});
