/**
 * Settings read from a file of `KEY=value` lines (`TIMECLOCK_ENV_FILE`), as systemd's
 * EnvironmentFile= would have put them in the environment: the screen's unit hands
 * /etc/timeclock-kiosk/env over as a credential (LoadCredential=) so that the API token reaches the
 * app without being in the environment of any process of the session (/proc/PID/environ, children).
 */
import fs from 'node:fs';

/** The variable that names the file; its own value is a path, no secret. */
export const ENV_FILE_VARIABLE = 'TIMECLOCK_ENV_FILE';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class EnvFileError extends Error {}

/**
 * The `KEY=value` lines of `text`: blank lines and `#` / `;` comments skipped, an optional
 * `export `, one pair of matching quotes around the value removed. A line that is none of these is
 * reported by its number only (it may hold the token).
 */
export function parseEnvFile(text: string, file: string): Record<string, string> {
  const out: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) return;
    const eq = line.indexOf('=');
    const name = (eq > 0 ? line.slice(0, eq) : '').replace(/^export\s+/, '').trim();
    if (!NAME.test(name)) throw new EnvFileError(`${file}, line ${i + 1}: not a KEY=value line`);
    let value = line.slice(eq + 1).trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0]))
      value = value.slice(1, -1);
    out[name] = value;
  });
  return out;
}

/**
 * `env` with the file's settings added under it (a variable set in `env` itself wins, as on the
 * command line). Without TIMECLOCK_ENV_FILE, `env` as it is.
 */
export function withEnvFile(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const file = env[ENV_FILE_VARIABLE];
  if (file === undefined || file === '') return env;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new EnvFileError(
      `${ENV_FILE_VARIABLE} ${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  const fromFile = parseEnvFile(text, `${ENV_FILE_VARIABLE} ${file}`);
  const merged: NodeJS.ProcessEnv = { ...fromFile };
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') merged[k] = v;
  return merged;
}
