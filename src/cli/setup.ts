import { buildAgent, realRuntime } from '../agent/build-agent.js';
import type { Agent } from '../agent/agent.js';
import { startDemo } from '../agent/demo.js';
import { loadConfig, type Config } from '../config.js';
import { createLogger, type Logger } from '../log.js';
import type { MockServer } from '../mock/mock-server.js';
import type { CliOptions } from './options.js';

export type Running = { agent: Agent; config: Config; demo: MockServer | null; log: Logger; shutdown(): Promise<void> };

/** Config → (demo mock) → agent, for the commands that talk to the API. */
export async function openAgent(opts: CliOptions): Promise<Running> {
  const { config, demo } = loadConfig({ file: opts.config });
  const log = createLogger({ level: config.logLevel });
  const demoSetup = demo ? await startDemo(config, log) : null;
  const ready = demoSetup ? demoSetup.config : (config as Config & { api: NonNullable<Config['api']> });
  let agent: Agent;
  try {
    agent = buildAgent(ready, realRuntime(log));
  } catch (e) {
    await demoSetup?.mock.close();
    throw e;
  }
  return {
    agent,
    config: ready,
    demo: demoSetup?.mock ?? null,
    log,
    async shutdown() {
      await agent.stop();
      await demoSetup?.mock.close();
    },
  };
}
