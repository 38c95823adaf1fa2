import fs from 'node:fs';
import path from 'node:path';
import {
  archiveSealFile,
  archiveSignatureFile,
  parseSeal,
  type ArchivedFact,
  type ArchivedMark,
  type ChainPoint,
} from '../../domain/punch/journal-archive-format.js';
import type { Db } from '../database.js';
import { archiveDirOf, archiveRows, type ArchiveRow } from './journal-archive.js';
import { ArchiveUnreadable, loadArchiveAsync } from './journal-archive-read.js';

/**
 * The archives' part of `journal verify` (store/journal/journal-verify.ts): each archive the database lists
 * is there, is the file that was sealed (length and SHA-256 in the seal, the seal file equal to the
 * database's copy, its signature when one was written), and continues the chains: each chain's
 * hash before it is the one after the previous archive, and its rows recomputed end on the hash
 * the seal names after it. The rows themselves go through the same checks as the database's
 * (`visitMark`, `visitFact`), so NSR and fact continuity run on across archive → archive → database.
 */

export type ArchiveProblem = { nsr?: number; seq?: number; message: string };
/** Checks a detached signature of `content`; a message when it does not verify, null when it does. */
export type SignatureCheck = (content: Buffer, signature: Buffer) => string | null;

export type ArchiveVisit = {
  /**
   * Facts first (their 'restored' and 'clock_adjusted' facts explain NSR gaps), then marks: two walks, as for the
   * database.
   */
  part: 'facts' | 'marks';
  visitMark(m: ArchivedMark): void;
  visitFact(f: ArchivedFact): void;
  /** An archive journal.keepYears removed: its NSRs and facts are gone, the walk goes on after them. */
  skipped(row: ArchiveRow, factsAfter: ChainPoint | null): void;
  /** Between archives: the event loop runs. */
  pause(): Promise<void>;
  stopped(): boolean;
  checkSignature?: SignatureCheck | null;
};

export type ArchiveWalk = {
  archives: number;
  removed: number;
  problem: ArchiveProblem | null;
  chains: Map<string, ChainPoint>;
  facts: ChainPoint | null;
};

/** Rows checked between two turns of the event loop. */
const STEP = 2_000;
const same = (a: ChainPoint | null | undefined, b: ChainPoint | null | undefined): boolean =>
  (a ?? null) === null
    ? (b ?? null) === null
    : b != null && a?.num === b.num && a.hash.toLowerCase() === b.hash.toLowerCase();
const point = (p: ChainPoint | null | undefined): string => (p ? `#${p.num} ${p.hash.slice(0, 12)}…` : 'none');

export async function walkArchives(db: Db, v: ArchiveVisit): Promise<ArchiveWalk> {
  const dir = archiveDirOf(db.name);
  const rows = archiveRows(db);
  const out: ArchiveWalk = { archives: 0, removed: 0, problem: null, chains: new Map(), facts: null };
  for (const row of rows) {
    if (v.stopped()) break;
    const problem =
      dir === null
        ? { message: `archive ${row.name}: no archive folder for this database` }
        : await checkArchive(dir, row, out, v);
    out.problem ??= problem;
    await v.pause();
  }
  return out;
}

async function checkArchive(
  dir: string,
  row: ArchiveRow,
  state: ArchiveWalk,
  v: ArchiveVisit,
): Promise<ArchiveProblem | null> {
  const seal = parseSeal(row.seal);
  if (!seal)
    return { nsr: row.firstNsr, message: `archive ${row.name}: the database's copy of its seal is not readable` };
  let problem: ArchiveProblem | null = null;
  // Continuity: what this archive says came before it is what the previous one (or none) ended on.
  const marks = v.part === 'marks';
  if (marks)
    for (const [chain, c] of Object.entries(seal.chains)) {
      if (!same(c.before, state.chains.get(chain))) {
        problem ??= {
          nsr: seal.marks.first,
          message: `archive ${row.name}: chain "${chain || 'configured employer'}" does not continue (it says ${point(c.before)} came before, the archives end on ${point(state.chains.get(chain))}): an archive is missing or was replaced`,
        };
      }
      state.chains.set(chain, c.after);
    }
  if (!marks && seal.facts.count > 0 && !same(seal.factChain.before, state.facts)) {
    problem ??= {
      seq: seal.facts.first,
      message: `archive ${row.name}: the facts do not continue (it says ${point(seal.factChain.before)} came before, the archives end on ${point(state.facts)})`,
    };
  }
  if (seal.factChain.after) state.facts = seal.factChain.after;
  if (v.part === 'facts' && row.removedAt !== null) state.removed++;
  if (row.removedAt !== null) {
    // journal.keepYears let it go (an 'archive_removed' fact says so): its seal in the database still links the chains.
    v.skipped(row, seal.factChain.after);
    return problem;
  }
  if (marks) state.archives++;
  const sealFile = path.join(dir, archiveSealFile(row.name));
  const onDisk = readOrNull(sealFile);
  if (onDisk === null)
    return problem ?? { nsr: seal.marks.first, message: `archive ${row.name}: its seal ${sealFile} is missing` };
  if (onDisk.toString('utf8') !== row.seal)
    return (
      problem ?? {
        nsr: seal.marks.first,
        message: `archive ${row.name}: its seal ${sealFile} is not the one the database recorded (changed)`,
      }
    );
  if (marks && row.signed) {
    const sig = readOrNull(path.join(dir, archiveSignatureFile(row.name)));
    if (sig === null)
      return (
        problem ?? {
          nsr: seal.marks.first,
          message: `archive ${row.name}: its signature ${archiveSignatureFile(row.name)} is missing`,
        }
      );
    const bad = v.checkSignature ? v.checkSignature(onDisk, sig) : null;
    if (bad !== null)
      return (
        problem ?? { nsr: seal.marks.first, message: `archive ${row.name}: its signature does not verify (${bad})` }
      );
  }
  let loaded;
  try {
    loaded = await loadArchiveAsync(dir, row, v.pause);
  } catch (e) {
    if (e instanceof ArchiveUnreadable) return problem ?? { nsr: seal.marks.first, message: e.message };
    throw e;
  }
  if (loaded.marks.length !== seal.marks.count || loaded.facts.length !== seal.facts.count) {
    return (
      problem ?? {
        nsr: seal.marks.first,
        message: `archive ${row.name}: holds ${loaded.marks.length} marks and ${loaded.facts.length} facts, its seal says ${seal.marks.count} and ${seal.facts.count}`,
      }
    );
  }
  if (!marks) {
    let factEnd: string | null = null;
    for (const [i, f] of loaded.facts.entries()) {
      v.visitFact(f);
      factEnd = f.hash;
      if (i % STEP === STEP - 1) await v.pause();
    }
    if (seal.facts.count > 0 && factEnd?.toLowerCase() !== seal.factChain.after?.hash.toLowerCase()) {
      return (
        problem ?? {
          seq: seal.facts.last,
          message: `archive ${row.name}: its facts recomputed do not end on the hash its seal names (a fact inside was changed)`,
        }
      );
    }
    return problem;
  }
  const ends = new Map<string, string>();
  for (const [i, m] of loaded.marks.entries()) {
    v.visitMark(m);
    ends.set(m.chain, m.line.slice(73));
    if (i % STEP === STEP - 1) await v.pause();
  }
  for (const [chain, c] of Object.entries(seal.chains)) {
    if ((ends.get(chain) ?? '').toLowerCase() !== c.after.hash.toLowerCase()) {
      return (
        problem ?? {
          nsr: c.after.num,
          message: `archive ${row.name}: chain "${chain || 'configured employer'}" recomputed does not end on the hash its seal names (a record inside was changed)`,
        }
      );
    }
  }
  return problem;
}

function readOrNull(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}
