/**
 * Doctor checks of this machine alone: the configuration, the data directory, its disk, the
 * database's integrity, the browser and the versions. File-system calls come in through `FsIo`,
 * so thresholds and refusals can be tested without a full disk or another user.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configWarnings, isHttpsOrLoopback, type LoadedConfig } from '../../config.js';
import type { CheckedDatabase } from '../../agent/diagnostics/doctor-reads.js';
import { databaseFile, StoreError } from '../../agent/host/terminal-data.js';
import { VERSION } from '../../version.js';
import { fail, firstLine, ok, warn, type CheckResult } from './result.js';

export type FsIo = {
  /** fs.statSync: throws ENOENT and the like. */
  stat(p: string): fs.Stats;
  /** fs.accessSync: throws when the mode is not granted. */
  access(p: string, mode: number): void;
  statfs(p: string): { bavail: number | bigint; bsize: number | bigint };
};

export const realFs: FsIo = {
  stat: (p) => fs.statSync(p),
  access: (p, mode) => fs.accessSync(p, mode),
  statfs: (p) => fs.statfsSync(p),
};

/** 1 MB = 10^6 bytes, as disk vendors and `df -H` count. */
const MB = 1_000_000;
export const DISK_FAIL_BYTES = 50 * MB;
export const DISK_WARN_BYTES = 500 * MB;

const errCode = (e: unknown): string => (e as NodeJS.ErrnoException)?.code ?? firstLine(e);

export function configurationCheck(loaded: LoadedConfig): CheckResult {
  const { config, demo, sources } = loaded;
  const from = sources.length > 0 ? `from ${sources.join(', ')}` : 'defaults only';
  const risks = configWarnings(config.rateLimit);
  if (config.api && !isHttpsOrLoopback(config.api.baseUrl))
    risks.push('api.allowInsecure is on: the token travels in clear to ' + new URL(config.api.baseUrl).host);
  if (demo)
    return warn(
      'configuration',
      `demo: no API configured (${from}); set api.baseUrl, api.token and siteId for a real terminal`,
    );
  if (risks.length > 0) return warn('configuration', `valid (${from}), but ${risks.join('; ')}`);
  return ok('configuration', `valid (${from})`);
}

/** The nearest directory above `p` that exists (the disk `p` would be on). */
function existingAncestor(p: string, io: FsIo): string {
  let cur = path.resolve(p);
  for (;;) {
    try {
      io.stat(cur);
      return cur;
    } catch {
      const up = path.dirname(cur);
      if (up === cur) return cur;
      cur = up;
    }
  }
}

/** `dir`: a directory is there (writable or not, its database can still be read); `missing`: not yet made. */
export type DataDirFacts = { result: CheckResult; state: 'dir' | 'missing' | 'unusable' };

/** Exists (or can be made at first start), is a directory, and this user may create files in it. */
export function dataDirCheck(loaded: LoadedConfig, io: FsIo): DataDirFacts {
  const dir = loaded.config.dataDir;
  const name = 'data directory';
  let st: fs.Stats;
  try {
    st = io.stat(dir);
  } catch (e) {
    if (errCode(e) !== 'ENOENT')
      return { result: fail(name, `${dir} cannot be read (${errCode(e)})`), state: 'unusable' };
    const above = existingAncestor(dir, io);
    try {
      if (!io.stat(above).isDirectory())
        return {
          result: fail(
            name,
            `${dir} cannot be created: ${above} is a file, not a directory; set dataDir (TIMECLOCK_DATA_DIR) elsewhere`,
          ),
          state: 'unusable',
        };
      io.access(above, fs.constants.W_OK | fs.constants.X_OK);
    } catch (inner) {
      return {
        result: fail(
          name,
          `${dir} does not exist and cannot be created (${above}: ${errCode(inner)}); create it for this user or set dataDir elsewhere`,
        ),
        state: 'unusable',
      };
    }
    return {
      result: warn(name, `${dir} does not exist yet; the terminal creates it at its first start`),
      state: 'missing',
    };
  }
  if (!st.isDirectory())
    return {
      result: fail(name, `${dir} is a file, not a directory; set dataDir (TIMECLOCK_DATA_DIR) to a directory`),
      state: 'unusable',
    };
  try {
    io.access(dir, fs.constants.W_OK | fs.constants.X_OK);
  } catch (e) {
    return {
      result: fail(
        name,
        `${dir} is not writable by ${os.userInfo().username} (${errCode(e)}); fix its owner (the kiosk user) or set dataDir elsewhere`,
      ),
      state: 'dir',
    };
  }
  return { result: ok(name, `${dir} (${loaded.dataDirSource}), writable by ${os.userInfo().username}`), state: 'dir' };
}

/** Free space where the data directory is (or would be): a full disk refuses punches. */
export function diskSpaceCheck(dir: string, io: FsIo): CheckResult {
  const at = existingAncestor(dir, io);
  let free: number;
  try {
    const s = io.statfs(at);
    free = Number(s.bavail) * Number(s.bsize);
  } catch (e) {
    return warn('disk space', `unknown: cannot ask the file system of ${at} (${errCode(e)})`);
  }
  const text = `${Math.floor(free / MB)} MB free for ${at}`;
  if (free < DISK_FAIL_BYTES)
    return fail('disk space', `${text}, under ${DISK_FAIL_BYTES / MB} MB: free space now, punches need it`);
  if (free < DISK_WARN_BYTES)
    return warn('disk space', `${text}, under ${DISK_WARN_BYTES / MB} MB: free some space soon`);
  return ok('disk space', text);
}

/** Opens the database read-only (the caller's `openDb` runs SQLite's quick_check on the whole file). */
export function databaseCheck(
  dir: string,
  dirState: DataDirFacts['state'],
  demo: boolean,
  io: FsIo,
  openDb: (dir: string) => CheckedDatabase,
): { result: CheckResult; db: CheckedDatabase | null } {
  const name = 'database';
  if (dirState === 'unusable')
    return { result: warn(name, 'not checked: the data directory cannot be used'), db: null };
  const file = databaseFile(dir);
  let size: number;
  try {
    size = io.stat(file).size;
  } catch {
    const when = demo ? 'the demo creates it when it starts' : 'the terminal creates it at its first start';
    return { result: warn(name, `no database yet in ${dir}: ${when}`), db: null };
  }
  try {
    const db = openDb(dir);
    const version = db.schemaVersion();
    return {
      result: ok(name, `integrity ok (quick_check), schema version ${version}, ${(size / MB).toFixed(1)} MB`),
      db,
    };
  } catch (e) {
    const why = e instanceof StoreError ? e.message : `cannot open ${file}: ${firstLine(e)}`;
    return { result: fail(name, why), db: null };
  }
}

/** Only the browser-mode screen needs Chromium: its absence is news, never a fault. */
export function browserCheck(env: NodeJS.ProcessEnv, io: FsIo): CheckResult {
  const exe = env.TIMECLOCK_CHROMIUM || '/usr/bin/chromium';
  try {
    io.access(exe, fs.constants.X_OK);
    return ok('browser', `${exe} present (for TIMECLOCK_SCREEN=browser or --browser)`);
  } catch {
    return warn('browser', `${exe} not installed (only needed for browser mode)`);
  }
}

export function versionsCheck(versions: NodeJS.ProcessVersions): CheckResult {
  const electron = (versions as NodeJS.ProcessVersions & { electron?: string }).electron;
  return ok('versions', `timeclock-kiosk ${VERSION}, Node ${versions.node}${electron ? `, Electron ${electron}` : ''}`);
}
