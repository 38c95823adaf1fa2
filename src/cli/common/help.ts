/**
 * Help for one command, read from the usage text in run.ts: a command registered there the usual
 * way (a `case` in dispatch and its `  timeclock NAME …` lines in USAGE) has its own `--help`,
 * `timeclock help NAME` and a place in the "did you mean" suggestions with nothing more to do.
 * Examples are the one thing kept here, by command.
 */

/** A few command lines per command, as a person would type them. Add a command's own here. */
const EXAMPLES: Record<string, string[]> = {
  start: ['timeclock start', 'timeclock start --headless --json', 'timeclock start --browser /usr/bin/chromium'],
  status: ['timeclock status', 'timeclock status --json | jq .queue'],
  doctor: ['timeclock doctor', 'timeclock doctor --json'],
  flush: ['timeclock flush --max-wait-ms 60000'],
  roster: ['timeclock roster sync'],
  audit: ['timeclock audit compare --from 2026-11-01 --to 2026-11-30'],
  rejected: ['timeclock rejected list', 'timeclock rejected retry 41 42', 'timeclock rejected retry --all'],
  held: ['timeclock held list', 'timeclock held resend 17', 'timeclock held dispute 17 "worked from home that day"'],
  settings: ['timeclock settings show', 'timeclock settings reset'],
  data: ['timeclock data adopt --from ~/.local/share/timeclock-kiosk', 'timeclock data compact'],
  journal: ['timeclock journal verify'],
  receipt: [
    'timeclock receipt 000000042',
    'timeclock receipt 000000042 --json',
    'timeclock receipt 000000042 --pdf --out /media/timeclock-usb/comprovante.pdf',
  ],
  afd: [
    'timeclock afd export --from 2026-11-01 --to 2026-11-30 --out /media/timeclock-usb',
    'timeclock afd verify AFD00000000000000000.txt',
  ],
  presence: ['timeclock presence', "timeclock presence --json | jq '.onSite | length'"],
  rollcall: ['timeclock rollcall start', 'timeclock rollcall mark 1001', 'timeclock rollcall end'],
  enroll: ['timeclock enroll badge 0012345678 1001'],
  unenroll: ['timeclock unenroll badge 0012345678'],
  pin: ['echo 4821 | timeclock pin set 1001', 'timeclock pin clear 1001'],
  hid: [
    'timeclock hid list',
    'timeclock hid record reader.capture --seconds 20',
    'timeclock hid replay reader.capture',
  ],
  mock: ['timeclock mock --port 8080', 'timeclock mock --employees 5000 --sites 3 --variant page-cap=50'],
  help: ['timeclock help', 'timeclock help status'],
  version: ['timeclock version'],
};

const COMMAND_LINE = /^ {2}timeclock ([a-z][a-z-]*)/;

/** The commands USAGE lists, in its order. */
export function commandNames(usage: string): string[] {
  const names: string[] = [];
  for (const line of usage.split('\n')) {
    const name = COMMAND_LINE.exec(line)?.[1];
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

/** USAGE's lines of one command (with the lines that continue them), or null for a command it does not list. */
export function commandHelp(usage: string, command: string): string | null {
  const lines = usage.split('\n');
  const own: string[] = [];
  let inside = false;
  for (const line of lines) {
    const name = COMMAND_LINE.exec(line)?.[1];
    if (name !== undefined) inside = name === command;
    else if (!/^ {3,}\S/.test(line)) inside = false; // a blank line or the next section
    if (inside) own.push(line.slice(2));
  }
  if (own.length === 0) return null;
  const examples = EXAMPLES[command] ?? [];
  return [
    'usage:',
    ...own.map((l) => `  ${l}`),
    ...(examples.length ? ['', 'examples:', ...examples.map((e) => `  ${e}`)] : []),
    '',
    'configuration, data directory and exit codes: timeclock help',
  ].join('\n');
}

/** Edits (insert, delete, substitute, swap two neighbours) from a to b. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The listed command a mistyped one most likely meant, if one is close enough. */
export function closestCommand(usage: string, typed: string): string | null {
  const word = typed.toLowerCase();
  let best: { name: string; d: number } | null = null;
  for (const name of commandNames(usage)) {
    const d = name.startsWith(word) && word.length >= 3 ? 0.5 : distance(word, name);
    if (d <= Math.max(1, Math.floor(name.length / 3)) && (best === null || d < best.d)) best = { name, d };
  }
  return best?.name ?? null;
}

/** The one line for a command USAGE does not list. */
export function unknownCommandLine(usage: string, typed: string): string {
  const near = closestCommand(usage, typed);
  return `timeclock: unknown command '${typed}'${near ? `; did you mean '${near}'?` : ''} (timeclock help lists the commands)`;
}
