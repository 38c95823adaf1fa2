import { Exit, intFlag, type CliOptions } from '../common/options.js';
import { openAgent } from '../common/setup.js';

export async function runFlush(opts: CliOptions): Promise<number> {
  const maxWaitMs = intFlag('max-wait-ms', opts['max-wait-ms'], 10 * 60_000, 0, 24 * 3_600_000);
  const run = await openAgent(opts);
  try {
    await run.agent.start({ roster: false });
    const out = await run.agent.flush({ maxWaitMs });
    const q = out.queue;
    const line = `sent ${q.sent}, pending ${q.pending}, in doubt ${q.in_doubt}, rejected ${q.rejected}, held ${q.held}`;
    if (out.done) {
      // Held punches wait for HR (allow_external_api_record), not for the terminal: say so.
      const held = q.held > 0 ? `; ${q.held} held until their employees may record by API` : '';
      process.stdout.write(`flush: queue empty (${line})${held}\n`);
      return Exit.ok;
    }
    process.stdout.write(`flush: stopped, ${out.blockedBy} (${line})\n`);
    return Exit.blocked;
  } finally {
    await run.shutdown();
  }
}
