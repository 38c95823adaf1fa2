import readline from 'node:readline';
import { buildIdentityAdmin, realRuntime } from '../../agent/build-agent.js';
import { loadConfig } from '../../config.js';
import type { AdminResult } from '../../agent/identity/identity-admin.js';
import { createLogger } from '../../log.js';
import { answerText } from '../../messages/catalogue.js';
import { cliLang } from '../common/lang.js';
import { Exit, UsageError, type CliOptions } from '../common/options.js';

function openAdmin(opts: CliOptions) {
  const { config } = loadConfig({ file: opts.config });
  return buildIdentityAdmin(config, realRuntime(createLogger({ level: config.logLevel })));
}

/** The agent's answer in the locale's language (src/messages). */
function report(r: AdminResult): number {
  (r.ok ? process.stdout : process.stderr).write(`${r.ok ? '' : 'timeclock: '}${answerText(cliLang(), r)}\n`);
  return r.ok ? Exit.ok : Exit.error;
}

/** `timeclock enroll badge <code> <employee>` and `timeclock unenroll badge <code>`. */
export function runEnroll(opts: CliOptions, args: string[], remove: boolean): number {
  const [what, code, employee] = args;
  if (what !== 'badge' || !code || (!remove && !employee) || args.length > (remove ? 2 : 3)) {
    throw new UsageError(
      remove
        ? 'usage: timeclock unenroll badge <code>'
        : 'usage: timeclock enroll badge <code> <employee: external id, registration number or CPF>',
    );
  }
  const a = openAdmin(opts);
  try {
    return report(remove ? a.admin.unenrollBadge(code) : a.admin.enrollBadge(code, employee as string, 'cli'));
  } finally {
    a.close();
  }
}

/** The PIN is read from standard input (one line), never from the command line or its history. */
async function readPin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('PIN (4 to 8 digits): ');
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  for await (const line of rl) {
    rl.close();
    return line.trim();
  }
  return '';
}

/** `timeclock pin set <employee>` (PIN on standard input) and `timeclock pin clear <employee>`. */
export async function runPin(opts: CliOptions, args: string[]): Promise<number> {
  const [action, employee] = args;
  const alone = action === 'set-admin' || action === 'unlock' || action === 'set-lead';
  if (
    (action !== 'set' && action !== 'clear' && !alone) ||
    (alone ? args.length !== 1 : !employee || args.length !== 2)
  ) {
    throw new UsageError(
      "usage: timeclock pin set <employee>   (the PIN is read from standard input)\n       timeclock pin clear <employee>\n       timeclock pin set-admin       (the admin screen's PIN, from standard input)\n       timeclock pin unlock          (lift the admin PIN's lockout after wrong PINs)\n       timeclock pin set-lead        (the shift lead's PIN: confirm held punches, reset PINs; from standard input)",
    );
  }
  const a = openAdmin(opts);
  try {
    if (action === 'set-admin') return report(await a.admin.setAdminPin(await readPin()));
    if (action === 'set-lead') return report(await a.admin.setShiftLeadPin(await readPin()));
    if (action === 'unlock')
      return report(a.admin.unlockAdminPin(`timeclock pin unlock (uid ${process.getuid?.() ?? '?'})`));
    return report(
      action === 'set'
        ? await a.admin.setPin(employee as string, await readPin())
        : a.admin.clearPin(employee as string),
    );
  } finally {
    a.close();
  }
}
