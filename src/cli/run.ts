/**
 * The command line: parses argv, runs one command, maps what it throws to a message and an exit
 * code. Shared by `node dist/src/cli.js` and the packaged app's command-line mode (`--cli`, the
 * `timeclock` command of an installed terminal), so both behave the same.
 */
import { ConfigError } from '../config.js';
import { defaultTerminalId, terminalIdSchema } from '../config-fleet.js';
import { createConsole } from '../log.js';
import { VERSION } from '../version.js';
import { StoreError } from '../agent/host/terminal-data.js';
import { runFlush } from './manage/flush.js';
import { runMock } from './terminal/mock.js';
import { runStart } from './terminal/start.js';
import { runStatus } from './status/status.js';
import { Exit, parseCli, UsageError } from './common/options.js';
import { runRosterSync } from './manage/roster.js';
import { runEnroll, runPin } from './manage/identity.js';
import { runHid } from './terminal/hid.js';
import { runSettings } from './manage/settings.js';
import { runPunches } from './manage/punches.js';
import { runData } from './manage/data.js';
import { runAfd } from './evidence/afd.js';
import { runDoctor } from './doctor/doctor.js';
import { runAudit } from './evidence/audit.js';
import { runJournal } from './evidence/journal.js';
import { runReceipt } from './evidence/receipt.js';
import { runPhotos } from './evidence/photos.js';
import { commandHelp, commandNames, unknownCommandLine } from './common/help.js';
import { runScreenUrl } from './terminal/screen-url.js';
import { runPresence, runRollCall } from './manage/presence.js';
import { endQuietlyOnClosedStdout } from './common/quiet-epipe.js';

const USAGE = `timeclock — time-clock terminal agent

usage:
  timeclock help [COMMAND]                                 this page, or one command's usage with examples (also: COMMAND --help)
  timeclock version                                        the version of this terminal software (also: --version)
  timeclock start [--headless] [--json] [--config FILE]   run the kiosk (demo on the embedded mock API when no API is configured)
        [--demo]                                           the demo even though a config file is given (one that names no API is refused
                                                           without it); its data never goes into the configured data directory
        [--print-punches]                                  under a service, print each punch (off: names and times are personal data, LGPD)
        [--browser PATH]                                   also show the kiosk screen in that browser (e.g. /usr/bin/chromium), kiosk mode
  timeclock status [--json] [--config FILE]                queue, connection, rate window, roster
  timeclock doctor [--json] [--config FILE]                check the set-up end to end, one ok/warn/fail line per check
                                                           (exit 1 when a check fails; safe beside a running terminal)
  timeclock flush [--max-wait-ms N] [--config FILE]       send what is due, exit when the queue is empty or blocked
  timeclock roster sync [--config FILE]                    fetch the site's roster now
  timeclock audit compare --from YYYY-MM-DD --to YYYY-MM-DD [--json]
                                                           the evidence journal's marks of those days against the service's
                                                           records (exit 1 when a mark is missing or could not be checked)
  timeclock rejected list [--json]                         punches the service refused, with its reason
  timeclock rejected retry <id>... | --all                 queue rejected punches again (after fixing the cause)
  timeclock held list [--json]                             punches kept and not sent (not allowed, 403, unverifiable)
  timeclock held resend <id> | held delivered <id>         a person's decision on a held punch (written to the audit log);
  timeclock held dispute <id> <reason>                     resend also confirms a punch whose PIN was not verified
  timeclock settings show [--json] [--config FILE]         API token (where it is kept, never its value), site and request budget in force
  timeclock settings reset [--config FILE]                 forget the token/site/budget set on the admin screen: back to the configuration
  timeclock data adopt --from DIR [--config FILE]          move the queue left in DIR (e.g. ~/.local/share/timeclock-kiosk) into
                                                           the data directory, when that has none; DIR is kept, renamed DIR.adopted-<time>
  timeclock data compact [--config FILE]                   terminal stopped: delete what the retention lets go, then rewrite the
                                                           file without its free space (converts a file made by an earlier version)
  timeclock journal verify [--json] [--config FILE]        recompute the evidence journal's hash chains; names the first record that
                                                           does not match (exit 1); safe beside a running terminal
  timeclock receipt <NSR> [--json] [--config FILE]         a punch's receipt (comprovante) again, by its NSR
        [--pdf [--out FILE]]                               --pdf: its signed PDF (kept receipt.keepHours) written to FILE
  timeclock afd export --from YYYY-MM-DD --to YYYY-MM-DD  the evidence journal's marks of those days as an AFD (Portaria 671), signed when
        [--out DIR|FILE] [--json] [--config FILE]          afd.signingKey is set; DIR keeps the Annex's file name (default: here)
  timeclock afd verify FILE                                check an AFD file (layout, CRCs, hash chain) and FILE.p7s (with openssl);
        [--allow-unsigned] [--strict]                      exit 1 when it is not valid or not signed (--allow-unsigned: a warning);
                                                           --strict: a self-signed or non-ICP-Brasil signer is an error too
  timeclock photos export --from YYYY-MM-DD --to YYYY-MM-DD  the punch photos of those days (photo.mode on-punch) named by NSR,
        DIR [--json] [--config FILE]                       with an index (CSV), written to DIR; exit 1 if one is not the journal's
  timeclock presence [--json] [--config FILE]              who is on site now (this terminal's table: every terminal of the site through
                                                           Redis, else its own punches and the service's records of the day)
  timeclock rollcall start|status|end [--json]             the evacuation roll call: freeze the list of who is on site, show it, end it
  timeclock rollcall mark <employee>                       (CSV and PDF kept in the data directory's roll-calls/); mark a person safe
  timeclock enroll badge <code> <employee>                 link a badge to an employee (external id, registration number or CPF)
  timeclock unenroll badge <code>                          remove a badge
  timeclock pin set <employee>                             set an employee's PIN (read from standard input)
  timeclock pin clear <employee>                           remove an employee's PIN
  timeclock pin unlock                                     lift the manager PIN's lockout after wrong PINs (audited)
  timeclock screen-url [--config FILE]                     the running terminal's kiosk screen address with its token
                                                           (the log has it without); for the terminal's user and root
  timeclock hid list [--json]                              attached HID devices (ids for the config and the udev rule)
  timeclock hid replay <file> [--config FILE]              decode a capture with the configured reader's decoder
  timeclock hid record <file> [--seconds N]                write a capture from the configured reader, for support
  timeclock mock [--port N] [--limit N] [--window-ms N] [--token T] [--employees N --sites N]
        [--variant NAME[=VALUE]]...                        run the mock T&A API alone; each --variant serves an answer
                                                           the API spec allows: page-cap=N, omit-links, omit-meta,
                                                           total-drift=N, cut-body=PAGE[xTIMES], site-without-name,
                                                           ignore-site-filter, odd-records, not-allowed=EXTID[,EXTID...];
                                                           or one a server or a proxy in front of it may give:
                                                           forbid-punches=ID[,ID...], redirect=STATUS:URL,
                                                           non-api=html|html-404|text, conflict-on-duplicate,
                                                           error-body-on-2xx, times-format=seconds|offset|utc-z|
                                                           utc-offset|rfc1123, times-end-exclusive, times-answer=404|400,
                                                           retry-after-date, timesheet-query=employee-from-to|data-inicio-fim,
                                                           timesheet-without-hours-bank, timesheet-malformed-days,
                                                           leaves-without-approval, times-garbage-record

configuration: a JSON file (--config or TIMECLOCK_CONFIG) and the environment:
  TIMECLOCK_API_URL, TIMECLOCK_API_TOKEN, TIMECLOCK_SITE_ID, TIMECLOCK_DATA_DIR,
  TIMECLOCK_RATE_LIMIT, TIMECLOCK_RATE_WINDOW_MS, TIMECLOCK_TIMEZONE, TIMECLOCK_LOG_LEVEL
data directory: dataDir / TIMECLOCK_DATA_DIR, else /var/lib/timeclock-kiosk when this user can write to it,
  else ~/.local/share/timeclock-kiosk ($XDG_DATA_HOME); a demo keeps its own 'demo' subdirectory
exit codes: 0 ok, 1 runtime error, 2 bad configuration or arguments, 3 flush blocked`;

async function dispatch(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseCli(argv);
  } catch (e) {
    // A bad flag of a known command: that command's usage, not the whole page.
    const own = argv[0] && !argv[0].startsWith('-') ? commandHelp(USAGE, argv[0]) : null;
    process.stderr.write(`timeclock: ${(e as Error).message}\n\n${own ?? USAGE}\n`);
    return Exit.usage;
  }
  const [command, sub] = parsed.positionals;
  const opts = parsed.values;
  if (opts.version || command === 'version') {
    process.stdout.write(`timeclock-kiosk ${VERSION}\n`);
    return Exit.ok;
  }
  if (command === 'help' || (opts.help && command)) return printHelp(command === 'help' ? sub : command);
  if (opts.help || !command) {
    process.stdout.write(USAGE + '\n');
    return command || opts.help ? Exit.ok : Exit.usage;
  }
  switch (command) {
    case 'start':
      return runStart(opts);
    case 'status':
      return runStatus(opts);
    case 'doctor':
      return runDoctor(opts, parsed.positionals.slice(1));
    case 'flush':
      return runFlush(opts);
    case 'roster':
      if (sub === 'sync') return runRosterSync(opts);
      process.stderr.write(`timeclock: unknown roster command ${sub ?? '(none)'}; try: timeclock roster sync\n`);
      return Exit.usage;
    case 'audit':
      return runAudit(opts, parsed.positionals.slice(1));
    case 'mock':
      return runMock(opts);
    case 'enroll':
      return runEnroll(opts, parsed.positionals.slice(1), false);
    case 'unenroll':
      return runEnroll(opts, parsed.positionals.slice(1), true);
    case 'pin':
      return runPin(opts, parsed.positionals.slice(1));
    case 'hid':
      return runHid(opts, parsed.positionals.slice(1));
    case 'settings':
      return runSettings(opts, parsed.positionals.slice(1));
    case 'data':
      return runData(opts, parsed.positionals.slice(1));
    case 'journal':
      return runJournal(opts, parsed.positionals.slice(1));
    case 'receipt':
      return runReceipt(opts, parsed.positionals.slice(1));
    case 'afd':
      return runAfd(opts, parsed.positionals.slice(1));
    case 'photos':
      return runPhotos(opts, parsed.positionals.slice(1));
    case 'screen-url':
      return runScreenUrl(opts, parsed.positionals.slice(1));
    case 'presence':
      return runPresence(opts, parsed.positionals.slice(1));
    case 'rollcall':
      return runRollCall(opts, parsed.positionals.slice(1));
    case 'rejected':
    case 'held':
      return runPunches(opts, command, parsed.positionals.slice(1));
    default:
      process.stderr.write(unknownCommandLine(USAGE, command) + '\n');
      return Exit.usage;
  }
}

/** `timeclock help [COMMAND]`, `timeclock COMMAND --help`: the whole page, or one command's (help.ts). */
function printHelp(topic: string | undefined): number {
  if (topic === undefined || topic === 'help') {
    process.stdout.write(
      `${USAGE}\n\ncommands: ${commandNames(USAGE).join(', ')}; timeclock help COMMAND for one of them\n`,
    );
    return Exit.ok;
  }
  const own = commandHelp(USAGE, topic);
  if (own === null) {
    process.stderr.write(unknownCommandLine(USAGE, topic) + '\n');
    return Exit.usage;
  }
  process.stdout.write(own + '\n');
  return Exit.ok;
}

/** Runs one command line; resolves with its exit code (never rejects). */
export async function runCli(argv: string[]): Promise<number> {
  endQuietlyOnClosedStdout();
  const fail = failureWriter(argv);
  try {
    return await dispatch(argv);
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError) {
      fail(e.message);
      return Exit.usage;
    }
    if (e instanceof StoreError) {
      fail(e.message);
      return Exit.error;
    }
    fail((e as Error)?.stack ?? String(e));
    return Exit.error;
  }
}

/**
 * `start` is the terminal itself: under a service its stderr is a log, so why it could not start is
 * a log line too (JSON unless a person is at a terminal). Other commands answer a person: text.
 */
function failureWriter(argv: string[]): (message: string) => void {
  let start = false;
  try {
    start = parseCli(argv).positionals[0] === 'start';
  } catch {
    /* a usage error: reported as text by dispatch */
  }
  if (!start) return (message) => process.stderr.write(`timeclock: ${message}\n`);
  // The configuration may be what failed: the terminal id from the environment, else the host name.
  const terminal = terminalIdSchema.safeParse(process.env.TIMECLOCK_TERMINAL_ID).data ?? defaultTerminalId();
  const say = createConsole({ fields: { terminal } });
  return (message) => say(message, 'error');
}
