import { Exit, type CliOptions } from '../common/options.js';
import { openAgent } from '../common/setup.js';

export async function runRosterSync(opts: CliOptions): Promise<number> {
  const run = await openAgent(opts);
  try {
    await run.agent.start({ roster: false });
    const res = await run.agent.syncRoster();
    // The workers' employers are read after the roster, at the lowest priority: a manual sync waits for them.
    await run.agent.employersRead();
    const skipped =
      'skipped' in res && res.skipped.count > 0 ? `; ${res.skipped.count} records skipped (see timeclock status)` : '';
    if (res.ok) {
      const site = res.site ? ` (site ${res.site.name ?? res.site.id ?? '?'})` : '';
      process.stdout.write(`roster: ${res.employees} employees in ${res.requests} requests${site}${skipped}\n`);
      return Exit.ok;
    }
    if (res.outcome === 'shrink_held') {
      process.stdout.write(`roster: ${res.error}${skipped}\n`);
      return Exit.error;
    }
    process.stdout.write(
      `roster: sync ${res.outcome} after ${res.requests} requests: ${res.error}; the previous roster stays in use${skipped}\n`,
    );
    return Exit.error;
  } finally {
    await run.shutdown();
  }
}
