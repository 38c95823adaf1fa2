import type { Config, LoadedConfig } from '../config.js';
import { createLogger, type Logger } from '../log.js';
import type { MockServer } from '../mock/mock-server.js';
import type { Agent } from './agent.js';
import { buildAgent, realRuntime } from './build-agent.js';
import { startDemo } from './demo.js';

export type Running = { agent: Agent; config: Config; demo: MockServer | null; log: Logger; shutdown(): Promise<void> };

/** Loaded config → (the demo's mock when no API is configured) → agent. Used by the CLI and the Electron main process. */
export async function openAgent({ config, demo }: Pick<LoadedConfig, 'config' | 'demo'>): Promise<Running> {
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
