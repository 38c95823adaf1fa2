/**
 * The terminal's default id (issue 24): made once at random and kept in the data directory, so it
 * stays the same across restarts and differs between boxes, unlike the host name, which every box
 * made from one disk image shares. A data directory copied to another box carries its id along:
 * the fleet registry in Redis (sync/fleet/terminal-registry.ts) reports two live terminals under one id.
 * `terminalId` in the configuration wins over this file (config.ts terminalIdOf).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The file in the data directory that holds the id (one line). */
export const TERMINAL_ID_FILE = 'terminal-id';

/** `tc-` and 8 characters of base32 (RFC 4648, lower case): 40 random bits, fits terminalIdSchema. */
const ID_PATTERN = /^tc-[a-z2-7]{8}$/;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A new id from 5 random bytes (`bytes` for tests). */
export function newTerminalId(bytes: Uint8Array = randomBytes(5)): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return `tc-${out.slice(0, 8).padEnd(8, 'a')}`;
}

/** The id kept in `dataDir`, or null when there is none (or what is there is not an id: it is made again). */
export function readTerminalIdFile(dataDir: string): string | null {
  try {
    const text = fs.readFileSync(path.join(dataDir, TERMINAL_ID_FILE), 'utf8').trim();
    return ID_PATTERN.test(text) ? text : null;
  } catch {
    return null;
  }
}

/**
 * The id kept in `dataDir`, made and written there first if there is none: a temp file, fsync, then
 * a hard link to the name (which fails if the name exists: two processes starting at once keep one
 * id), so a crash leaves no half id; 0644, since it is no secret and tools may read it. Null when
 * the directory cannot be written (the agent then fails to start with the reason anyway).
 */
export function ensureTerminalIdFile(dataDir: string): string | null {
  const existing = readTerminalIdFile(dataDir);
  if (existing) return existing;
  const file = path.join(dataDir, TERMINAL_ID_FILE);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o644);
    try {
      if (process.platform !== 'win32') fs.fchmodSync(fd, 0o644);
      fs.writeSync(fd, `${newTerminalId()}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    // A file that is there but holds no id (damaged) is replaced; one that holds an id is kept.
    if (fs.existsSync(file) && readTerminalIdFile(dataDir) === null) fs.rmSync(file, { force: true });
    try {
      fs.linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    syncDir(dataDir);
  } catch {
    return null;
  } finally {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      /* no directory to leave it in */
    }
  }
  return readTerminalIdFile(dataDir);
}

function syncDir(dir: string): void {
  if (process.platform === 'win32') return;
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    /* best effort: the file itself was synced */
  }
}
