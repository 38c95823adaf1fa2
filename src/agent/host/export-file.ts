/**
 * Files the kiosk writes for people to carry away: on a USB drive somebody else may have prepared,
 * in the download folder, at a path given on the command line. Such a place may hold a planted
 * symbolic link (to the punch database, say) or a directory under the file's name, so an export
 * never opens its target: it writes a new temporary name beside it (O_CREAT|O_EXCL|O_NOFOLLOW, so
 * nothing that is already there is opened or followed), fsyncs, refuses a target that is a link
 * or not a regular file, and renames into place (a rename replaces the name, never writes through
 * it). Shared by the AFD (and its .p7s) and the punch CSV.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Why an export would not write: `exists` (and not asked to replace) or `not_regular` (a link, a directory, a
 * device...).
 */
export class ExportTargetError extends Error {
  constructor(
    message: string,
    readonly code: 'exists' | 'not_regular',
    readonly file: string,
  ) {
    super(message);
    this.name = 'ExportTargetError';
  }
}

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const NEW_FILE = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NOFOLLOW;

function kindOf(st: fs.Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isBlockDevice() || st.isCharacterDevice()) return 'a device';
  return 'not a regular file';
}

async function lstatOrNull(p: string): Promise<fs.Stats | null> {
  try {
    return await fs.promises.lstat(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * What is at `file` may be replaced by an export: nothing, or a regular file when `replace`.
 * A symbolic link (even to a regular file) or anything else is refused, naming what it is.
 */
export async function checkExportTarget(file: string, replace: boolean): Promise<void> {
  const st = await lstatOrNull(file);
  if (st === null) return;
  if (!st.isFile()) {
    throw new ExportTargetError(
      `${file} is ${kindOf(st)}: an export never writes through it or replaces it; remove it or choose another place`,
      'not_regular',
      file,
    );
  }
  if (!replace)
    throw new ExportTargetError(`${file} already exists: move it away or choose another place`, 'exists', file);
}

/**
 * The folder an export writes into, made when missing (`mode` then); refused when it is a
 * symbolic link (a folder on a drive pointing into the data directory) or not a directory.
 */
export async function exportFolder(dir: string, mode?: number): Promise<void> {
  await fs.promises.mkdir(dir, { recursive: true, ...(mode === undefined ? {} : { mode }) });
  const st = await fs.promises.lstat(dir);
  if (!st.isDirectory()) {
    throw new ExportTargetError(
      `${dir} is ${kindOf(st)}: an export writes only into a real folder; remove it or choose another place`,
      'not_regular',
      dir,
    );
  }
}

/** A file being exported: written under a temporary name beside `file`, then put in place (or discarded). */
export class ExportFile {
  private fh: fs.promises.FileHandle | null;
  bytes = 0;

  private constructor(
    readonly file: string,
    readonly tmp: string,
    fh: fs.promises.FileHandle,
  ) {
    this.fh = fh;
  }

  /**
   * Checks the target (checkExportTarget) and creates the temporary file. `replace`: a regular
   * file of that name is replaced at `place()`. `mode` is the new file's (the umask applies);
   * 0600 unless said: an export holds CPFs and names, for its owner alone whatever the folder's mode.
   */
  static async create(file: string, o: { replace?: boolean; mode?: number } = {}): Promise<ExportFile> {
    await checkExportTarget(file, o.replace ?? false);
    const tmp = path.join(
      path.dirname(file),
      `.${path.basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
    );
    const fh = await fs.promises.open(tmp, NEW_FILE, o.mode ?? 0o600);
    return new ExportFile(file, tmp, fh);
  }

  async write(data: Buffer | string, encoding: BufferEncoding = 'utf8'): Promise<void> {
    if (!this.fh) throw new Error(`${this.tmp} is already closed`);
    const buf = typeof data === 'string' ? Buffer.from(data, encoding) : data;
    let off = 0;
    while (off < buf.length) off += (await this.fh.write(buf, off, buf.length - off)).bytesWritten;
    this.bytes += buf.length;
  }

  /** Flushed to the disk and closed; the file is still under its temporary name. */
  async finish(): Promise<void> {
    const fh = this.fh;
    if (!fh) return;
    this.fh = null;
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  }

  /**
   * Finished, the target checked again (a link or folder planted meanwhile is refused), renamed into place. The
   * directory is not synced: syncDir.
   */
  async place(): Promise<void> {
    await this.finish();
    await checkExportTarget(this.file, true);
    await fs.promises.rename(this.tmp, this.file);
  }

  /** place(), then the directory synced: the file is on the disk under its name. */
  async commit(): Promise<void> {
    await this.place();
    await syncDir(path.dirname(this.file));
  }

  /** Closes and removes the temporary file (after a failure); never throws. */
  async discard(): Promise<void> {
    try {
      await this.fh?.close();
    } catch {
      /* already failing */
    }
    this.fh = null;
    await fs.promises.rm(this.tmp, { force: true }).catch(() => undefined);
  }
}

/**
 * Removes a regular file an earlier export left (an old .p7s that does not sign the new file).
 * A link or anything else of that name is left alone: it was not ours.
 */
export async function removeExported(file: string): Promise<void> {
  const st = await lstatOrNull(file);
  if (st?.isFile()) await fs.promises.rm(file, { force: true });
}

/**
 * The renames reach the disk (a removable drive may be pulled right after). Some filesystems cannot fsync a directory:
 * then the file's own fsync is what there is.
 */
export async function syncDir(dir: string): Promise<void> {
  let fh: fs.promises.FileHandle | null = null;
  try {
    fh = await fs.promises.open(dir, 'r');
    await fh.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM' && code !== 'ENOTSUP') throw err;
  } finally {
    await fh?.close();
  }
}
