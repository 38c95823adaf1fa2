import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createConsole, createLogger, stderrIsJournal, stderrStyle, type LogStyle } from '../../src/log.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
function capture(style: LogStyle, level: 'debug' | 'info' = 'debug') {
  const lines: string[] = [];
  const opts = {
    style,
    write: (l: string) => lines.push(l),
    now: () => NOW,
    fields: { terminal: 'door-7' },
    timeZone: 'America/Sao_Paulo',
  };
  return { lines, log: createLogger({ ...opts, level }), say: createConsole(opts) };
}

describe('log lines', () => {
  it('json: one object per line with time, level, message, the terminal and the fields; secrets masked', () => {
    const { lines, log } = capture('json');
    log.info('sent', { punchId: 3, apiToken: 'abc', note: 'two\nlines' });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toEqual({
      t: '2026-03-01T12:00:00.000Z',
      level: 'info',
      msg: 'sent',
      terminal: 'door-7',
      punchId: 3,
      apiToken: '[redacted]',
      note: 'two\nlines',
    });
    expect(lines[0]).not.toContain('\n');
  });

  it('journal: each line starts with its sd-daemon priority, then the same JSON', () => {
    const { lines, log, say } = capture('journal');
    log.error('e');
    log.warn('w');
    say('n');
    log.info('i');
    log.debug('d');
    expect(lines.map((l) => l.slice(0, 3))).toEqual(['<3>', '<4>', '<5>', '<6>', '<7>']);
    expect(lines.map((l) => (JSON.parse(l.slice(3)) as { level: string; terminal: string }).level)).toEqual([
      'error',
      'warn',
      'notice',
      'info',
      'debug',
    ]);
  });

  it('pretty: the human format of a terminal; the console keeps its "timeclock:" lines', () => {
    const { lines, log, say } = capture('pretty');
    log.warn('clock stepped', { stepMs: 5000, pin: '1234' });
    say('ready: type or scan');
    say('cannot start', 'error');
    expect(lines).toEqual([
      'timeclock [warn] clock stepped step=5 s pin=[redacted]',
      'timeclock: ready: type or scan',
      'timeclock: cannot start',
    ]);
  });

  it('pretty: instants in the wall time of the zone with how long ago or ahead, spans in h and min; JSON keeps the numbers', () => {
    const fields = { lastOkAt: NOW - 3 * 60_000, nextInMs: 21_545_881, tookMs: 12, deliveredAt: null, punchesAt: 3 };
    const pretty = capture('pretty');
    pretty.log.info('roster: the last sync is recent, none at start', fields);
    pretty.log.info('later', { retryAt: NOW + 26 * 3_600_000 });
    // 12:00 UTC is 09:00 in São Paulo.
    expect(pretty.lines).toEqual([
      'timeclock [info] roster: the last sync is recent, none at start lastOkAt=08:57 (3 min ago) nextIn=5 h 59 min took=12 ms deliveredAt=null punchesAt=3',
      'timeclock [info] later retryAt=2026-03-02 11:00 (in 1 d 2 h)',
    ]);
    const json = capture('json');
    json.log.info('roster', fields);
    expect(JSON.parse(json.lines[0] as string)).toMatchObject({ lastOkAt: NOW - 180_000, nextInMs: 21_545_881 });
  });

  it('the level filters log lines, never what the console says', () => {
    const { lines, log, say } = capture('json', 'info');
    log.debug('hidden');
    say('shown');
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['shown']);
  });
});

describe('which style stderr gets', () => {
  const st = fs.fstatSync(2, { bigint: true });
  const ours = `${st.dev}:${st.ino}`;

  it('JOURNAL_STREAM counts only when it names this stderr (systemd.exec(5))', () => {
    expect(stderrIsJournal({ JOURNAL_STREAM: ours })).toBe(true);
    expect(stderrIsJournal({ JOURNAL_STREAM: `${st.dev}:${st.ino + 1n}` })).toBe(false);
    expect(stderrIsJournal({ JOURNAL_STREAM: 'yes' })).toBe(false);
    expect(stderrIsJournal({})).toBe(false);
  });

  it('a terminal gets pretty lines; otherwise journal or json', () => {
    expect(stderrStyle({ JOURNAL_STREAM: ours }, true)).toBe('pretty');
    expect(stderrStyle({ JOURNAL_STREAM: ours }, false)).toBe('journal');
    expect(stderrStyle({}, false)).toBe('json');
  });
});
