/**
 * Structured log lines (one JSON object per line) on stderr, where journald or a supervisor
 * collects them. Fields named like secrets are masked, so a token passed by mistake never lands
 * in a log.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;
export type Logger = {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
};

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_KEY = /token|password|secret|authorization|pin/i;

function redact(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_KEY.test(k) ? '[redacted]' : v;
  return out;
}

/**
 * `pretty` (default: standard error is a terminal) prints `timeclock [level] msg key=value` for a
 * person at the keyboard; otherwise one JSON object per line for journald and log shippers.
 */
export function createLogger(opts: { level?: LogLevel; write?: (line: string) => void; now?: () => number; pretty?: boolean } = {}): Logger {
  const min = order[opts.level ?? 'info'];
  const pretty = opts.pretty ?? (opts.write === undefined && process.stderr.isTTY === true);
  // On a terminal, \r\n: the headless kiosk puts it in raw mode, where \n alone does not return.
  const write = opts.write ?? ((line: string) => process.stderr.write(line + (pretty ? '\r\n' : '\n')));
  const now = opts.now ?? Date.now;
  const emit = (level: LogLevel) => (msg: string, fields?: LogFields) => {
    if (order[level] < min) return;
    const safe = fields ? redact(fields) : {};
    if (pretty) {
      const kv = Object.entries(safe).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
      write([`timeclock [${level}] ${msg}`, ...kv].join(' '));
    } else write(JSON.stringify({ t: new Date(now()).toISOString(), level, msg, ...safe }));
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export function parseLogLevel(v: string | undefined): LogLevel {
  return v === 'debug' || v === 'info' || v === 'warn' || v === 'error' ? v : 'info';
}
