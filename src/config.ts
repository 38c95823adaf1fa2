/**
 * The terminal's configuration: defaults, then a JSON file, then environment variables.
 * With no API configured at all, the terminal runs the demo (embedded mock API).
 * The schema (every key, default and bound) is config-schema.ts's; this file loads it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { defaultTerminalId, fleetEnvKeys } from './config-fleet.js';
import { ensureTerminalIdFile, readTerminalIdFile } from './config-terminal-id.js';
import { evidenceEnvKeys } from './config-evidence.js';
import { configSchema, type Config } from './config-schema.js';
import { networkEnvKeys, networkProblems, proxyEnvOf, proxyEnvSecrets, type ProxyEnv } from './config-network.js';

export { configSchema, isHttpsOrLoopback, type Config } from './config-schema.js';

/** The account's limit as the specification states it: 60 requests per sliding 60 s. */
export const ACCOUNT_RATE = { limit: 60, windowMs: 60_000 } as const;

/** Warnings about a configuration that is valid but risky: at start, in status and by the self-check. */
export function configWarnings(rate: { limit: number; windowMs: number }): string[] {
  const out: string[] = [];
  if (rate.limit / rate.windowMs > ACCOUNT_RATE.limit / ACCOUNT_RATE.windowMs) {
    out.push(
      `the request budget (${rate.limit} per ${rate.windowMs / 1000} s) is above the account's ${ACCOUNT_RATE.limit} per ${ACCOUNT_RATE.windowMs / 1000} s: ` +
        'the service will answer 429s unless this account was granted more',
    );
  }
  return out;
}

/**
 * The terminal's name: configured, else the random id kept in the data directory (made there at the
 * first call, config-terminal-id.ts); the host name only when that directory cannot be written.
 */
export function terminalIdOf(config: Pick<Config, 'terminalId' | 'dataDir'>): string {
  return config.terminalId ?? ensureTerminalIdFile(config.dataDir) ?? defaultTerminalId();
}

/**
 * The same name as read from outside the agent (status, doctor), which write nothing: the host name
 * names a data directory an earlier version used, which has no id file yet.
 */
export function storedTerminalIdOf(config: Pick<Config, 'terminalId' | 'dataDir'>): string {
  return config.terminalId ?? readTerminalIdFile(config.dataDir) ?? defaultTerminalId();
}

/** Environment variables operators and tests rely on, and the config key each sets. */
export const envKeys: Record<string, string> = {
  TIMECLOCK_API_URL: 'api.baseUrl',
  TIMECLOCK_API_TOKEN: 'api.token',
  TIMECLOCK_API_TIMEOUT_MS: 'api.timeoutMs',
  TIMECLOCK_SITE_ID: 'siteId',
  TIMECLOCK_DATA_DIR: 'dataDir',
  TIMECLOCK_TIMEZONE: 'timezone',
  TIMECLOCK_RATE_LIMIT: 'rateLimit.limit',
  TIMECLOCK_RATE_WINDOW_MS: 'rateLimit.windowMs',
  TIMECLOCK_RETRY_BASE_MS: 'retry.baseMs',
  TIMECLOCK_RETRY_MAX_MS: 'retry.maxMs',
  TIMECLOCK_LOG_LEVEL: 'logLevel',
  TIMECLOCK_LANGUAGE: 'screen.language',
  ...fleetEnvKeys,
  ...evidenceEnvKeys,
  ...networkEnvKeys,
};

/**
 * Environment variables that hold secrets: read into the config, never passed to a child process.
 * The Redis URL may carry a password (redis://:password@host), so it is one whatever it holds.
 */
export const SECRET_ENV_KEYS = [
  'TIMECLOCK_API_TOKEN',
  'TIMECLOCK_AFD_SIGNING_PASSWORD',
  'TIMECLOCK_API_PROXY',
  'TIMECLOCK_RATE_REDIS_URL',
] as const;

/** The secret variables of `env`: SECRET_ENV_KEYS, and HTTPS_PROXY and the like when they carry user:password. */
export function secretEnvKeys(env: NodeJS.ProcessEnv): string[] {
  return [...SECRET_ENV_KEYS, ...proxyEnvSecrets(env)];
}

/** `env` without the secrets, for a process we start (a browser's renderers must not see the token). */
export function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const k of secretEnvKeys(env)) delete copy[k];
  return copy;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

import { defaultDataDir, userDataDir, type DataDirSource } from './data-dir.js';
import { EnvFileError, withEnvFile } from './config-env-file.js';

/** The environment with TIMECLOCK_ENV_FILE's settings under it; a bad file is a configuration error. */
function envWithFile(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  try {
    return withEnvFile(env);
  } catch (e) {
    if (e instanceof EnvFileError) throw new ConfigError([e.message]);
    throw e;
  }
}
export { SYSTEM_DATA_DIR, userDataDir, defaultDataDir, type DataDirSource } from './data-dir.js';

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let cur = target;
  for (const k of keys.slice(0, -1)) {
    if (typeof cur[k] !== 'object' || cur[k] === null) cur[k] = {};
    cur = cur[k] as Record<string, unknown>;
  }
  cur[keys[keys.length - 1] as string] = value;
}

function hasPath(obj: Record<string, unknown>, dotted: string): boolean {
  let cur: unknown = obj;
  for (const k of dotted.split('.')) {
    if (typeof cur !== 'object' || cur === null || !(k in cur)) return false;
    cur = (cur as Record<string, unknown>)[k];
  }
  return true;
}

/**
 * `legacyDataDir`: where an earlier version kept this mode's queue (the per-user directory), set
 * only when the data directory is the default system one: the agent adopts a queue left there.
 */
export type LoadedConfig = {
  config: Config;
  demo: boolean;
  sources: string[];
  dataDirSource: DataDirSource;
  legacyDataDir: string | null;
  /** HTTPS_PROXY, HTTP_PROXY, NO_PROXY as loaded: kept here so the secrets can leave the process environment. */
  proxyEnv: ProxyEnv;
};

/**
 * Reads the file (if any) and the environment, and validates the result. Errors name the key,
 * where its value came from, and what is wrong with it; the token's value never appears.
 * `systemDataDir`: the system data directory to prefer (tests pass their own).
 */
export function loadConfig(
  opts: { file?: string; env?: NodeJS.ProcessEnv; systemDataDir?: string } = {},
): LoadedConfig {
  const env = envWithFile(opts.env ?? process.env);
  const file = opts.file ?? env.TIMECLOCK_CONFIG;
  const raw: Record<string, unknown> = {};
  const origin = new Map<string, string>();
  const sources: string[] = [];
  let fileValues: Record<string, unknown> = {};
  if (file) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      throw new ConfigError([
        `config file ${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      ]);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      // Only the position: the parser's own message quotes the text around the error, which
      // may be the token.
      const at = /position (\d+)/.exec((e as Error).message);
      const where = at ? ` near line ${text.slice(0, Number(at[1])).split('\n').length}` : '';
      throw new ConfigError([`config file ${file}: not valid JSON${where}`]);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ConfigError([`config file ${file}: must hold a JSON object`]);
    }
    Object.assign(raw, parsed);
    fileValues = parsed as Record<string, unknown>;
    sources.push(file);
  }
  for (const [name, key] of Object.entries(envKeys)) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    setPath(raw, key, v);
    origin.set(key, name);
    sources.push(name);
  }
  const demo = raw.api === undefined;
  let dataDirSource: DataDirSource = 'configured';
  let legacyDataDir: string | null = null;
  if (raw.dataDir === undefined) {
    const chosen = defaultDataDir(env, demo, opts.systemDataDir);
    raw.dataDir = chosen.dir;
    dataDirSource = chosen.source;
    if (chosen.source === 'system') legacyDataDir = path.join(userDataDir(env), demo ? 'demo' : '');
  }

  const fromOf = (key: string, inFile: boolean): string =>
    origin.get(key) ?? (inFile && file ? `file ${file}` : 'not set');
  const result = configSchema.safeParse(raw);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((i) => {
        const key = i.path.join('.') || '(root)';
        // Unknown keys can only come from the file; the environment sets known keys only.
        const inFile = i.code === 'unrecognized_keys' || hasPath(fileValues, key);
        const message = i.code === 'unrecognized_keys' ? `unknown key(s) ${i.keys.join(', ')}` : i.message;
        return `${key} (from ${fromOf(key, inFile)}): ${message}`;
      }),
    );
  }
  const proxyEnv = proxyEnvOf(env);
  const network = networkProblems(result.data.api, proxyEnv);
  if (network.length > 0) {
    throw new ConfigError(
      network.map((p) =>
        p.key === '(environment)'
          ? p.message
          : `${p.key} (from ${fromOf(p.key, hasPath(fileValues, p.key))}): ${p.message}`,
      ),
    );
  }
  return { config: result.data, demo, sources, dataDirSource, legacyDataDir, proxyEnv };
}
