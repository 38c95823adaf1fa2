/**
 * The database holds CPFs and the evidence journal: owner-only (0600) whatever the data
 * directory's mode or the process's umask. SQLite creates a new database 0644 (less the umask),
 * and gives its -wal and -shm the database file's own mode, so the file is created here first,
 * empty and 0600 (SQLite takes an empty file for a new database), and a file an earlier version
 * left readable by others is tightened when opened for writing.
 */
import fs from 'node:fs';

const SIDE_FILES = ['', '-wal', '-shm'] as const;

/** Before SQLite opens `file` for writing: create it 0600 when absent, else take group and other bits away. */
export function ownerOnlyDatabaseFile(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600));
    return;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  for (const suffix of SIDE_FILES) {
    const f = file + suffix;
    try {
      const st = fs.statSync(f);
      const mode = st.mode & 0o777;
      if (st.isFile() && (mode & 0o077) !== 0) fs.chmodSync(f, mode & 0o700);
    } catch (e) {
      // Absent side files are normal; a file of another owner (root's doctor on the service's file) is not ours to
      // change.
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EPERM') throw e;
    }
  }
}
