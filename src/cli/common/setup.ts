import { openAgent as openAgentFor, type Running } from '../../agent/open-agent.js';
import { loadConfig, type LoadedConfig } from '../../config.js';
import type { CliOptions } from './options.js';

export type { Running };

/**
 * Config (file from --config, environment) → agent, for the commands that talk to the API. A token
 * set on the admin screen is kept in a file only the kiosk user can read (`<dataDir>/api-token`,
 * 0600: the agent's default token store, agent/open-agent.ts `OpenDeps`): a headless box has no
 * desktop secret store by design, so no warning is shown for it.
 * `serve.metrics`: serve `metrics.listen` (the running terminal, not a one-shot command).
 */
export function openAgent(
  opts: CliOptions,
  serve: { metrics?: boolean } = {},
  loaded: LoadedConfig = loadConfig({ file: opts.config }),
): Promise<Running> {
  return openAgentFor(loaded, { metrics: serve.metrics ?? false });
}
