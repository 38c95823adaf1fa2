import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createConsole, createLogger, stderrIsJournal, stderrStyle, type LogStyle } from '../../src/log.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
function capture(style: LogStyle, level: 'debug' | 'info' = 'debug') {
  const lines: string[] = [];
  const opts = { style, write: (l: string) => lines.push(l), now: () => NOW, fields: { terminal: 'door-7' } };
  return { lines, log: createLogger({ ...opts, level }), say: createConsole(opts) };
}

describe('log lines', () => {
  it('json: one object per line with time, level, message, the terminal and the fields; secrets masked', () => {
    const { lines, log } = capture('json');
    log.info('sent', { punchId: 3, apiToken: 'abc', note: 'two\nlines' });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toEqual({ t: '2026-03-01T12:00:00.000Z', level: 'info', msg: 'sent', terminal: 'door-7', punchId: 3, apiToken: '[redacted]', note: 'two\nlines' });
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
    expect(lines.map((l) => (JSON.parse(l.slice(3)) as { level: string; terminal: string }).level)).toEqual(['error', 'warn', 'notice', 'info', 'debug']);
  });

  it('pretty: the human format of a terminal; the console keeps its "timeclock:" lines', () => {
    const { lines, log, say } = capture('pretty');
    log.warn('clock stepped', { stepMs: 5000, pin: '1234' });
    say('ready: type or scan');
    say('cannot start', 'error');
    expect(lines).toEqual(['timeclock [warn] clock stepped stepMs=5000 pin=[redacted]', 'timeclock: ready: type or scan', 'timeclock: cannot start']);
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
