// Where the terminal keeps its data when the configuration does not say (config.ts re-exports it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The data directory of every mode when it can be used: the Debian package creates it (owned by
 * the kiosk user, 0700), so the screen kiosk, the headless service and the CLI share one queue.
 */
export const SYSTEM_DATA_DIR = '/var/lib/timeclock-kiosk';

/**
 * The per-user data directory (XDG): the default where the system one cannot be used, and where earlier versions kept
 * the queue.
 */
export function userDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'timeclock-kiosk');
}

/** A directory (not a file) this process may create files in. */
function isWritableDir(dir: string): boolean {
  try {
    if (!fs.statSync(dir).isDirectory()) return false;
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where the data directory came from: the configuration, or the default (the system directory, else the user's). */
export type DataDirSource = 'configured' | 'system' | 'user';

/** The default data directory (no dataDir configured); a demo keeps its own `demo` subdirectory of it. */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  demo = false,
  systemDataDir = SYSTEM_DATA_DIR,
): { dir: string; source: 'system' | 'user' } {
  const base = isWritableDir(systemDataDir) ? systemDataDir : null;
  return { dir: path.join(base ?? userDataDir(env), demo ? 'demo' : ''), source: base ? 'system' : 'user' };
}
