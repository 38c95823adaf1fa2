import { Exit, intFlag, type CliOptions } from './options.js';
import { openAgent } from './setup.js';

export async function runFlush(opts: CliOptions): Promise<number> {
  const maxWaitMs = intFlag('max-wait-ms', opts['max-wait-ms'], 10 * 60_000, 0, 24 * 3_600_000);
  const run = await openAgent(opts);
  try {
    await run.agent.start({ roster: false });
    const out = await run.agent.flush({ maxWaitMs });
    const q = out.queue;
    const line = `sent ${q.sent}, pending ${q.pending}, in doubt ${q.in_doubt}, rejected ${q.rejected}`;
    if (out.done) {
      process.stdout.write(`flush: queue empty (${line})\n`);
      return Exit.ok;
    }
    process.stdout.write(`flush: stopped, ${out.blockedBy} (${line})\n`);
    return Exit.blocked;
  } finally {
    await run.shutdown();
  }
}
