import { Exit, type CliOptions } from './options.js';
import { openAgent } from './setup.js';

export async function runRosterSync(opts: CliOptions): Promise<number> {
  const run = await openAgent(opts);
  try {
    await run.agent.start({ roster: false });
    const res = await run.agent.syncRoster();
    if (res.ok) {
      process.stdout.write(`roster: ${res.employees} employees in ${res.requests} requests${res.site ? ` (site ${res.site.name})` : ''}\n`);
      return Exit.ok;
    }
    process.stdout.write(`roster: sync failed after ${res.requests} requests: ${res.error}; the previous roster stays in use\n`);
    return Exit.error;
  } finally {
    await run.shutdown();
  }
}
