import { openAgent as openAgentFor, type Running } from '../agent/open-agent.js';
import { loadConfig } from '../config.js';
import type { CliOptions } from './options.js';

export type { Running };

/** Config (file from --config, environment) → agent, for the commands that talk to the API. */
export function openAgent(opts: CliOptions): Promise<Running> {
  return openAgentFor(loadConfig({ file: opts.config }));
}
