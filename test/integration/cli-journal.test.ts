/**
 * `timeclock journal verify` on the real command line: a whole journal exits 0 and says how much it
 * checked; one changed byte in a mark (a tamperer who drops our append-only triggers first) exits 1
 * and names that NSR; a data directory without a journal says so.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { journalPunch, journalRig } from '../helpers/journal.js';
import { openDatabase } from '../../src/store/database.js';
import { tempDir } from '../helpers/temp.js';

const rig = journalRig();
afterEach(() => rig.cleanup());

describe('timeclock journal verify', () => {
  it('exits 0 on a whole journal, 1 naming the NSR whose mark was changed, and 1 where there is no journal', async () => {
    const dir = rig.dir();
    const j = rig.open(dir);
    for (let i = 0; i < 5; i++) j.outbox.insert(journalPunch(i));
    j.db.close();
    const env = { TIMECLOCK_DATA_DIR: dir };

    const whole = await runCli(['journal', 'verify'], env);
    expect(whole.stderr).toBe('');
    expect(whole.stdout).toMatch(
      /^journal: whole — 5 marks and \d+ facts checked in \d+ ms \(journal [0-9a-f]{32}, next NSR \d+\)/,
    );
    expect(whole.code).toBe(0);

    const db = openDatabase(dir);
    for (const t of db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'journal_marks'")
      .all() as { name: string }[])
      db.exec(`DROP TRIGGER ${t.name}`);
    const line = (db.prepare('SELECT line FROM journal_marks WHERE nsr = 3').get() as { line: string }).line;
    // 07:58 becomes 07:59 in the mark's time: the kind of change a dispute is about.
    const changed = line.slice(0, 24) + (line[24] === '9' ? '8' : '9') + line.slice(25);
    db.prepare('UPDATE journal_marks SET verbatim = ? WHERE nsr = 3').run(changed);
    db.close();

    const broken = await runCli(['journal', 'verify'], env);
    expect(broken.stdout).toMatch(/^journal: BROKEN at NSR 000000003: /);
    expect(broken.code).toBe(1);
    const json = await runCli(['journal', 'verify', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, firstProblem: { nsr: 3 } });
    expect(json.code).toBe(1);

    const empty = tempDir();
    try {
      const none = await runCli(['journal', 'verify'], { TIMECLOCK_DATA_DIR: empty.dir });
      expect(none.stderr).toMatch(/no terminal data in/);
      expect(none.code).toBe(1);
      expect(fs.existsSync(path.join(empty.dir, 'timeclock.sqlite'))).toBe(false);
    } finally {
      empty.cleanup();
    }
  });

  it('refuses anything but verify with the usage (exit 2)', async () => {
    const r = await runCli(['journal', 'check'], { TIMECLOCK_DATA_DIR: rig.dir() });
    expect(r.stderr).toMatch(/usage: timeclock journal verify/);
    expect(r.code).toBe(2);
  });
});
