/**
 * Punch photos on disk (issue 31): `<dataDir>/photos/<NSR>.jpg`, mode 0600, written whole or not at
 * all (temp file, fsync, rename) off the event loop; each one sealed by a 'photo' fact carrying its
 * SHA-256 in the journal's fact chain, each removal by a 'photo_removed' fact. Never read by the
 * uploader: the API has no place for a photo.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { nsrOfPhotoFile, photoFactDetail, photoFileName } from '../../domain/punch/photo.js';
import type { Db, WritableDb } from '../database.js';
import { JournalFacts } from './journal-facts.js';

export const PHOTO_DIR_NAME = 'photos';

export function photoDirOf(dataDir: string): string {
  return path.join(dataDir, PHOTO_DIR_NAME);
}

export type PhotoSaved = 'saved' | 'no_mark' | 'already';

/** The photo facts of one NSR, newest last, as `journal verify` and the prune read them. */
type FactAt = { event: string; at: number };

export class PhotoFiles {
  readonly dir: string;
  private readonly facts: JournalFacts;
  private readonly stmts;

  constructor(
    private readonly db: WritableDb,
    dataDir: string,
  ) {
    this.dir = photoDirOf(dataDir);
    this.facts = new JournalFacts(db);
    this.stmts = {
      mark: db.prepare('SELECT 1 FROM journal_marks WHERE nsr = ?'),
      photoFacts: db.prepare(
        "SELECT event, at FROM journal_facts INDEXED BY journal_facts_by_nsr WHERE nsr = ? AND event IN ('photo', 'photo_missing', 'photo_removed') ORDER BY seq",
      ),
    };
  }

  fileOf(nsr: number): string {
    return path.join(this.dir, photoFileName(nsr));
  }

  /** Stores `jpeg` as the photo of mark `nsr` and seals it with a fact; once per NSR. */
  async save(nsr: number, jpeg: Buffer, at: number): Promise<PhotoSaved> {
    if (!this.stmts.mark.get(nsr)) return 'no_mark';
    if (this.factsOf(nsr).length > 0) return 'already';
    await writePrivateFileAsync(this.fileOf(nsr), jpeg);
    const sha = createHash('sha256').update(jpeg).digest('hex');
    // Checked again in the transaction: two calls for one NSR may both have passed the check above.
    const sealed = this.db.transaction(() => {
      if (this.factsOf(nsr).length > 0) return false;
      this.facts.append(nsr, at, 'photo', photoFactDetail(sha, jpeg.length));
      return true;
    })();
    return sealed ? 'saved' : 'already';
  }

  /** The punch `nsr` was taken without a photo ("sem foto"), and why. */
  missing(nsr: number, at: number, why: string): PhotoSaved {
    if (!this.stmts.mark.get(nsr)) return 'no_mark';
    return this.db.transaction(() => {
      if (this.factsOf(nsr).length > 0) return 'already' as const;
      this.facts.append(nsr, at, 'photo_missing', `sem foto: ${why}`);
      return 'saved' as const;
    })();
  }

  /** The photo of `nsr`, or null (none taken, removed, or unreadable). */
  read(nsr: number): Buffer | null {
    try {
      return fs.readFileSync(this.fileOf(nsr));
    } catch {
      return null;
    }
  }

  /** 'photo', 'missing' (sem foto), 'removed', or null: nothing was said about this punch's photo. */
  stateOf(nsr: number): 'photo' | 'missing' | 'removed' | null {
    const last = this.factsOf(nsr).at(-1)?.event;
    return last === 'photo'
      ? 'photo'
      : last === 'photo_missing'
        ? 'missing'
        : last === 'photo_removed'
          ? 'removed'
          : null;
  }

  /** The NSRs with a photo file now, ascending. */
  list(): number[] {
    return photoNsrsIn(this.dir);
  }

  /**
   * Removes the photos whose 'photo' fact is older than `before` (UTC ms), each with a
   * 'photo_removed' fact written before the file goes (a crash between leaves a fact and a file,
   * which the next pass deletes, never a missing file without its fact). How many were removed.
   */
  prune(before: number, now: number, why: string): number {
    let removed = 0;
    for (const nsr of this.list()) {
      const facts = this.factsOf(nsr);
      const photo = facts.findLast((f) => f.event === 'photo');
      const last = facts.at(-1);
      if (last?.event === 'photo_removed') {
        fs.rmSync(this.fileOf(nsr), { force: true });
        continue;
      }
      if (!photo || photo.at >= before) continue;
      this.db.transaction(() => this.facts.append(nsr, now, 'photo_removed', why))();
      fs.rmSync(this.fileOf(nsr), { force: true });
      removed++;
    }
    return removed;
  }

  private factsOf(nsr: number): FactAt[] {
    return this.stmts.photoFacts.all(nsr) as FactAt[];
  }
}

/** The NSRs of the photo files in `dir`, ascending (none when it does not exist). */
export function photoNsrsIn(dir: string): number[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map(nsrOfPhotoFile)
    .filter((n): n is number => n !== null)
    .sort((a, b) => a - b);
}

/** The photo files of a database's data directory (journal verify, export): beside the database file. */
export function photoDirOfDb(db: Db): string {
  return photoDirOf(path.dirname(db.name));
}

/** writePrivateFile (store/private-file.ts) with the writes and fsync off the event loop: capture goes on meanwhile. */
async function writePrivateFileAsync(file: string, data: Buffer): Promise<void> {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  const fh = await fs.promises.open(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
  try {
    if (process.platform !== 'win32') await fh.chmod(0o600);
    await fh.writeFile(data);
    await fh.sync();
  } catch (e) {
    await fh.close();
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
  await fh.close();
  await fs.promises.rename(tmp, file);
}
