/**
 * A configuration is either real or absent (issue 25 item 10). With no configuration at all the
 * terminal runs the demo, as it always did. But a configuration file (given by --config or
 * TIMECLOCK_CONFIG) that, with the environment, names no API is a set-up gone wrong — an empty
 * `{}`, a token pasted into the wrong file — and the demo's mock API and its known admin PIN must
 * not start in its place: `timeclock start` refuses unless `--demo` says so. The demo then keeps
 * its data in its own directory, never in a configured one (the real terminal's queue and journal).
 */
import path from 'node:path';
import type { LoadedConfig } from './config.js';
import { defaultDataDir, userDataDir } from './data-dir.js';

/** Why the terminal will not start with this configuration; one line, said as it is. */
export class StartRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartRefused';
  }
}

export type StartChoice = {
  /** --config, if given (else TIMECLOCK_CONFIG from `env` is what loadConfig read). */
  file: string | undefined;
  /** --demo was given. */
  demo: boolean;
  env: NodeJS.ProcessEnv;
  /** Tests pass their own system data directory, as to loadConfig. */
  systemDataDir?: string;
};

const within = (child: string, parent: string): boolean => {
  const rel = path.relative(path.resolve(parent), path.resolve(child));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/**
 * The configuration `timeclock start` (and the Electron main) runs with: `loaded` as it is, the
 * demo moved out of a configured data directory, or StartRefused.
 */
export function startConfig(loaded: LoadedConfig, o: StartChoice): LoadedConfig {
  const file = o.file || o.env.TIMECLOCK_CONFIG || undefined;
  if (!loaded.demo) {
    if (o.demo)
      throw new StartRefused(
        `--demo runs the demo, but the configuration names an API (${file ? `config file ${file} or ` : ''}TIMECLOCK_API_URL): start without --demo`,
      );
    return loaded;
  }
  if (file && !o.demo) {
    throw new StartRefused(
      `config file ${file} names no API, and neither does the environment: set api.baseUrl and api.token there (or TIMECLOCK_API_URL and TIMECLOCK_API_TOKEN); to run the demo instead: timeclock start --demo`,
    );
  }
  if (!o.demo || loaded.dataDirSource !== 'configured') return loaded;
  const configured = loaded.config.dataDir;
  const candidates = [
    defaultDataDir(o.env, true, o.systemDataDir),
    { dir: path.join(userDataDir(o.env), 'demo'), source: 'user' as const },
  ];
  const own = candidates.find((c) => !within(c.dir, configured) && !within(configured, c.dir));
  if (!own) {
    throw new StartRefused(
      `--demo keeps its data apart from the configured data directory ${configured}, and its own (${candidates[0]?.dir}) is inside it: set XDG_DATA_HOME elsewhere`,
    );
  }
  return { ...loaded, config: { ...loaded.config, dataDir: own.dir }, dataDirSource: own.source, legacyDataDir: null };
}
