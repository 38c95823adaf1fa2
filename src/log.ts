/**
 * Log lines on stderr, where journald or a supervisor collects them: one JSON object per line
 * unless a person is reading (a terminal). Fields named like secrets are masked, so a token passed
 * by mistake never lands in a log.
 */
import fs from 'node:fs';
import { humanField } from './log-human.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;
export type Logger = {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
};

/**
 * pretty: `timeclock [level] msg key=value` for a person at a terminal; json: one object per line;
 * journal: the same, each line prefixed `<N>` (sd-daemon.h) so journald records its priority.
 */
export type LogStyle = 'pretty' | 'json' | 'journal';
/** `notice`: what the console tells whoever started the terminal (printed whatever the log level). */
type LineLevel = LogLevel | 'notice';

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const PRIORITY: Record<LineLevel, number> = { error: 3, warn: 4, notice: 5, info: 6, debug: 7 };
const SECRET_KEY = /token|password|secret|authorization|pin/i;

function redact(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_KEY.test(k) ? '[redacted]' : v;
  return out;
}

/**
 * journald sets JOURNAL_STREAM to `device:inode` of the stream it reads; a child whose stderr was
 * redirected elsewhere inherits the variable, so it counts only when it names our stderr
 * (systemd.exec(5)).
 */
export function stderrIsJournal(env: NodeJS.ProcessEnv = process.env): boolean {
  const m = /^(\d+):(\d+)$/.exec(env.JOURNAL_STREAM ?? '');
  if (!m) return false;
  try {
    const st = fs.fstatSync(2, { bigint: true });
    return String(st.dev) === m[1] && String(st.ino) === m[2];
  } catch {
    return false;
  }
}

/** How lines on this process's stderr should look. */
export function stderrStyle(env: NodeJS.ProcessEnv = process.env, isTTY = process.stderr.isTTY === true): LogStyle {
  if (isTTY) return 'pretty';
  return stderrIsJournal(env) ? 'journal' : 'json';
}

/**
 * A reader of stderr that went away (journald restarted, `| head`) must cost the log, never the
 * terminal: unhandled, EPIPE is an uncaught exception, whose report is written to stderr again.
 */
let stderrBroken = false;
let stderrWatched = false;
function writeStderr(text: string): void {
  if (stderrBroken) return;
  if (!stderrWatched) {
    stderrWatched = true;
    process.stderr.on('error', () => {
      stderrBroken = true;
    });
  }
  try {
    process.stderr.write(text);
  } catch {
    stderrBroken = true;
  }
}

export type LogOptions = {
  level?: LogLevel;
  /** Default: stderr. */
  write?: (line: string) => void;
  now?: () => number;
  /** Default: stderrStyle() when writing to stderr, json with `write`. */
  style?: LogStyle;
  /** On every JSON line (the terminal's id): a fleet's logs say which terminal wrote them. */
  fields?: LogFields;
  /** Human lines show instants in this zone; default: this machine's (a terminal's is its site's). */
  timeZone?: string;
};

type LineWriter = (level: LineLevel, msg: string, fields?: LogFields, spoken?: boolean) => void;

function lineWriter(opts: LogOptions): LineWriter {
  const style: LogStyle = opts.style ?? (opts.write === undefined ? stderrStyle() : 'json');
  // On a terminal, \r\n: the headless kiosk puts it in raw mode, where \n alone does not return.
  const write = opts.write ?? ((line: string) => writeStderr(line + (style === 'pretty' ? '\r\n' : '\n')));
  const now = opts.now ?? Date.now;
  const base = opts.fields ? redact(opts.fields) : {};
  const zone = opts.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (level, msg, fields, spoken = false) => {
    const safe = fields ? redact(fields) : {};
    if (style === 'pretty') {
      const at = now();
      const kv = Object.entries(safe).map(([k, v]) => humanField(k, v, at, zone));
      // What the console says keeps its old look on a terminal: `timeclock: …`.
      write([spoken ? `timeclock: ${msg}` : `timeclock [${level}] ${msg}`, ...kv].join(' '));
      return;
    }
    // One line whatever the message holds (JSON escapes newlines), so a collector never splits it.
    const json = JSON.stringify({ t: new Date(now()).toISOString(), level, msg, ...base, ...safe });
    write(style === 'journal' ? `<${PRIORITY[level]}>${json}` : json);
  };
}

export function createLogger(opts: LogOptions = {}): Logger {
  const min = order[opts.level ?? 'info'];
  const line = lineWriter(opts);
  const emit = (level: LogLevel) => (msg: string, fields?: LogFields) => {
    if (order[level] >= min) line(level, msg, fields);
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/**
 * What the terminal tells whoever started it (where the kiosk screen is, "ready", a fatal error):
 * `timeclock: …` on a terminal as always, a log line (level `notice`, or the one given) anywhere
 * else, so stderr never mixes text into a JSON log. Printed whatever the log level.
 */
export type Say = (line: string, level?: 'notice' | 'warn' | 'error') => void;

export function createConsole(opts: Omit<LogOptions, 'level'> = {}): Say {
  const line = lineWriter(opts);
  return (msg, level = 'notice') => line(level, msg, undefined, true);
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export function parseLogLevel(v: string | undefined): LogLevel {
  return v === 'debug' || v === 'info' || v === 'warn' || v === 'error' ? v : 'info';
}
