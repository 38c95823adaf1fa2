/**
 * `journal verify` for punch photos (issue 31): every photo the fact chain says was stored and not
 * removed must be on disk with the SHA-256 its fact sealed, and every photo file must have such a
 * fact. A swapped, edited, removed or slipped-in photo is a problem of the journal.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parsePhotoFactDetail, photoFileName } from '../../domain/punch/photo.js';
/** As journal-verify.ts's JournalProblem (not imported: that file imports this one). */
type JournalProblem = { nsr?: number; seq?: number; message: string };
import { photoNsrsIn } from './photo-files.js';

type SealedPhoto = { seq: number; sha256: string | null };

export class PhotoSeals {
  private readonly sealed = new Map<number, SealedPhoto>();

  /** Each fact, in chain order (archived ones included). */
  note(f: { seq: number; nsr: number; event: unknown; detail: unknown }): void {
    if (f.event === 'photo')
      this.sealed.set(f.nsr, {
        seq: f.seq,
        sha256: typeof f.detail === 'string' ? (parsePhotoFactDetail(f.detail)?.sha256 ?? null) : null,
      });
    else if (f.event === 'photo_removed') this.sealed.delete(f.nsr);
  }

  /** The first problem between the sealed photos and the files in `dir`, or null. */
  check(dir: string): JournalProblem | null {
    for (const [nsr, s] of this.sealed) {
      if (s.sha256 === null)
        return { nsr, seq: s.seq, message: `fact ${s.seq}: a photo fact of NSR ${nsr} without its SHA-256` };
      let bytes: Buffer;
      try {
        bytes = fs.readFileSync(path.join(dir, photoFileName(nsr)));
      } catch {
        return { nsr, seq: s.seq, message: `NSR ${nsr}: its photo is gone without a removal fact (deleted?)` };
      }
      if (createHash('sha256').update(bytes).digest('hex') !== s.sha256)
        return {
          nsr,
          seq: s.seq,
          message: `NSR ${nsr}: its photo is not the one the journal sealed (swapped or edited)`,
        };
    }
    for (const nsr of photoNsrsIn(dir)) {
      if (!this.sealed.has(nsr))
        return { nsr, message: `NSR ${nsr}: a photo file the journal never sealed (put there later?)` };
    }
    return null;
  }
}
