import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Small secret files of the data directory (the API token, or its ciphertext): written whole or
 * not at all, readable only by the kiosk user, and refused when anyone else could read them.
 * Errors name the file and what to do; they never quote the file's content.
 */
export class PrivateFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PrivateFileError';
  }
}

/** Windows has no group/other mode bits (its ACLs come from the user's profile folder). */
const CHECK_MODE = process.platform !== 'win32';

/**
 * Writes `data` to `file` atomically with mode 0600: a temp file (0600 from its creation, in the
 * same directory so the rename stays on one filesystem), fsync, rename over the old file, fsync the
 * directory. A crash leaves the old file or the new one, never a part of either; a failure (disk
 * full, read-only) leaves the old one and no temp file behind.
 */
export function writePrivateFile(file: string, data: string | Buffer): void {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
    // The umask can only take bits away, but be explicit: 0600 whatever the umask.
    if (CHECK_MODE) fs.fchmodSync(fd, 0o600);
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = null;
    fs.renameSync(tmp, file);
  } catch (e) {
    if (fd !== null) {
      try {
        fs.closeSync(fd);
      } catch {
        /* already failing */
      }
    }
    fs.rmSync(tmp, { force: true });
    throw new PrivateFileError(`cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  syncDir(dir);
}

/** The rename is durable only once the directory entry is on disk (not possible on Windows). */
export function syncDir(dir: string): void {
  if (process.platform === 'win32') return;
  let fd: number | null = null;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    /* some filesystems refuse fsync on a directory; the rename itself went through */
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/**
 * The content of `file`, or null when there is none. Refuses (PrivateFileError) a file that is not
 * a regular file (a symlink, a directory, a FIFO) or that group or others may read or write.
 */
export function readPrivateFile(file: string): Buffer | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new PrivateFileError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!st.isFile()) throw new PrivateFileError(`${file} is not a regular file; remove it and set the token again`);
  if (CHECK_MODE && (st.mode & 0o077) !== 0) {
    throw new PrivateFileError(
      `${file} can be read by other users (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}); ` +
        `it is not used: run 'chmod 600 ${file}' (and replace the token if others may have read it)`,
    );
  }
  try {
    // O_NOFOLLOW: the file checked above is the file read, not a symlink swapped in meanwhile.
    const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    try {
      return fs.readFileSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    throw new PrivateFileError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Removes `file` if it is there; a failure is a PrivateFileError naming it. */
export function removePrivateFile(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch (e) {
    throw new PrivateFileError(`cannot remove ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  syncDir(path.dirname(file));
}

/** The file token store's file in `dataDir`. */
export const TOKEN_FILE_NAME = 'api-token';
/** The secret-store (Electron safeStorage) token's ciphertext in `dataDir`. */
export const TOKEN_ENC_FILE_NAME = 'api-token.enc';

/** `warning` of the file store when it is used because there is no system secret store. */
export function noSecretStoreWarning(file: string, why = 'no system secret store'): string {
  return `${why}: the API token is kept in ${file}, readable only by the kiosk user`;
}

/**
 * The API token in `<dataDir>/api-token` (0600). The headless terminal's store, and the Electron
 * shell's when the system has no secret store. Shaped as the agent's TokenStore
 * (src/agent/host/token-store.ts).
 */
export class FileTokenStore {
  readonly source = 'file' as const;
  readonly file: string;

  constructor(
    dataDir: string,
    /** Shown on the admin screen: why the token is in a plain file (null: by design, e.g. headless). */
    readonly warning: string | null = null,
  ) {
    this.file = path.join(dataDir, TOKEN_FILE_NAME);
  }

  load(): string | null {
    const buf = readPrivateFile(this.file);
    if (buf === null) return null;
    // One trailing newline (an editor's, or `echo`'s) is not part of the token.
    const token = buf.toString('utf8').replace(/\r?\n$/, '');
    return token.length > 0 ? token : null;
  }

  save(token: string): void {
    writePrivateFile(this.file, token);
  }

  clear(): void {
    removePrivateFile(this.file);
  }
}
