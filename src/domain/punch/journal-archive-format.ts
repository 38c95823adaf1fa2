/**
 * The evidence journal's archive file (docs/evidence-journal.md, "Archives"): the text inside the
 * gzip, and the seal beside it. Pure: the hash functions are passed in.
 *
 * Text, UTF-8, one record a line, fields separated by tabs (a mark's body and a fact's detail hold
 * no tab: facts' control characters are spaces, marks are AFD digits):
 *
 *   timeclock-journal-archive 1 <journal id> <first fact seq>
 *   M <body: the type 7 record's first 73 characters> <punch id Δ> <unresolved id> <local date or ""> <written at Δ ms>
 *   <chain> [<hash>]
 *   F <nsr> <at Δ ms> <event> <detail> [<hash>]
 *
 * Hashes are not stored: each is SHA-256 of the body (or fact line) and the previous hash of its
 * chain, recomputed from the seal's `before` hashes. A stored row whose hash was not the chain's
 * (damage the journal's own verification reports) keeps its hash as a last field, so an archive
 * holds exactly what the database held. Δ: the difference from the previous record's value
 * (smaller numbers compress better); a local date is written only when it changes.
 */
import { MARK_BODY_LENGTH, type Sha256Hex } from '../afd/mark.js';
import { factHash, isFactEvent, type FactEvent } from './journal-fact.js';

export const ARCHIVE_FORMAT = 'timeclock-journal-archive/1';
const HEADER = 'timeclock-journal-archive 1';

export type ArchivedMark = {
  nsr: number;
  line: string;
  punchId: number | null;
  unresolvedId: number | null;
  localDate: string;
  writtenAt: number;
  chain: string;
};
export type ArchivedFact = { seq: number; nsr: number; at: number; event: FactEvent; detail: string; hash: string };
export type ChainPoint = { num: number; hash: string };

/** What the seal file says (JSON), and the database keeps a copy of. */
export type ArchiveSeal = {
  format: typeof ARCHIVE_FORMAT;
  journalId: string;
  /** The files' stem: YYYY-MM.<journal id>.<first NSR, 9 digits>. */
  name: string;
  month: string;
  /** The gzip file: its name, length and SHA-256. */
  data: { file: string; bytes: number; sha256: string };
  marks: { first: number; last: number; count: number };
  /** Facts first..last (count 0: none). */
  facts: { first: number; last: number; count: number };
  /**
   * Per employer chain with marks here: its last hash before this archive (null: the chain starts here) and after it.
   */
  chains: Record<string, { before: ChainPoint | null; after: ChainPoint }>;
  factChain: { before: ChainPoint | null; after: ChainPoint | null };
  dates: { from: string; to: string };
  punchIds: { min: number; max: number } | null;
  createdAt: string;
};

export const archiveStem = (month: string, journalId: string, firstNsr: number): string =>
  `${month}.${journalId}.${String(firstNsr).padStart(9, '0')}`;
export const archiveDataFile = (stem: string): string => `${stem}.jnl.gz`;
export const archiveSealFile = (stem: string): string => `${stem}.seal.json`;
export const archiveSignatureFile = (stem: string): string => `${stem}.seal.json.p7s`;

/**
 * Builds the text of an archive (before gzip) a slice at a time, so the caller can let the event
 * loop run between slices: `marks()` for every mark in NSR order, then `facts()` in seq order.
 */
export class ArchiveEncoder {
  private readonly out: string[];
  private readonly chainHash: Map<string, string>;
  private punch = 0;
  private written = 0;
  private date = '';
  private factPrev: string;
  private at = 0;

  constructor(
    journalId: string,
    firstSeq: number,
    heads: ReadonlyMap<string, ChainPoint | null>,
    factBefore: ChainPoint | null,
    private readonly sha: { latin1: Sha256Hex; utf8: Sha256Hex },
  ) {
    this.out = [`${HEADER} ${journalId} ${firstSeq}`];
    this.chainHash = new Map([...heads].map(([c, p]) => [c, p?.hash ?? '']));
    this.factPrev = factBefore?.hash ?? '';
  }

  marks(marks: readonly ArchivedMark[]): void {
    for (const m of marks) {
      const body = m.line.slice(0, MARK_BODY_LENGTH);
      const computed = this.sha.latin1(body + (this.chainHash.get(m.chain) ?? ''));
      const stored = m.line.slice(MARK_BODY_LENGTH);
      this.chainHash.set(m.chain, stored);
      const fields = [
        'M',
        body,
        m.punchId === null ? '' : String(m.punchId - this.punch),
        m.unresolvedId === null ? '' : String(m.unresolvedId),
        m.localDate === this.date ? '' : m.localDate,
        String(m.writtenAt - this.written),
        m.chain,
      ];
      if (stored !== computed) fields.push(stored);
      if (m.punchId !== null) this.punch = m.punchId;
      this.written = m.writtenAt;
      this.date = m.localDate;
      this.out.push(fields.join('\t'));
    }
  }

  facts(facts: readonly ArchivedFact[]): void {
    for (const f of facts) {
      const computed = factHash(f, this.factPrev, this.sha.utf8);
      const fields = ['F', String(f.nsr), String(f.at - this.at), f.event, f.detail];
      if (f.hash !== computed) fields.push(f.hash);
      this.factPrev = f.hash;
      this.at = f.at;
      this.out.push(fields.join('\t'));
    }
  }

  text(): string {
    return this.out.join('\n') + '\n';
  }

  /**
   * The lines encoded since the last take (the header first), and forgets them: an archive written in pieces, never
   * whole in memory.
   */
  take(): string {
    const piece = this.out.length > 0 ? this.out.join('\n') + '\n' : '';
    this.out.length = 0;
    return piece;
  }
}

export class ArchiveFormatError extends Error {}

const int = (s: string | undefined, what: string): number => {
  if (s === undefined || !/^-?\d+$/.test(s)) throw new ArchiveFormatError(`${what} is not a whole number`);
  return Number(s);
};

type Decoded = { marks: ArchivedMark[]; facts: ArchivedFact[] };
type Sha = { latin1: Sha256Hex; utf8: Sha256Hex };

/**
 * Reads an archive's text back with every hash recomputed from `seal`'s `before` hashes (its `after` hashes are then
 * what verify compares).
 */
export function decodeArchive(
  text: string,
  seal: Pick<ArchiveSeal, 'journalId' | 'chains' | 'factChain'>,
  sha: Sha,
): Decoded {
  const steps = decodeArchiveSteps(text, seal, sha, Number.MAX_SAFE_INTEGER);
  for (let r = steps.next(); ; r = steps.next()) if (r.done) return r.value;
}

/** The same, pausing (a `yield`) every `lines` records, for a reader on the agent's event loop. */
export function* decodeArchiveSteps(
  text: string,
  seal: Pick<ArchiveSeal, 'journalId' | 'chains' | 'factChain'>,
  sha: Sha,
  step: number,
): Generator<void, Decoded> {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const head = (lines[0] ?? '').split(' ');
  if (`${head[0]} ${head[1]}` !== HEADER) throw new ArchiveFormatError('not a journal archive (its first line)');
  if (head[2] !== seal.journalId)
    throw new ArchiveFormatError(`an archive of journal ${head[2]}, not ${seal.journalId}`);
  let seq = int(head[3], 'the first fact number');
  const chainHash = new Map<string, string>(Object.entries(seal.chains).map(([c, p]) => [c, p.before?.hash ?? '']));
  let factPrev = seal.factChain.before?.hash ?? '';
  const marks: ArchivedMark[] = [];
  const facts: ArchivedFact[] = [];
  let punch = 0;
  let written = 0;
  let date = '';
  let at = 0;
  for (let i = 1; i < lines.length; i++) {
    if (i % step === 0) yield;
    const f = (lines[i] as string).split('\t');
    const where = `line ${i + 1}`;
    if (f[0] === 'M' && (f.length === 7 || f.length === 8)) {
      const body = f[1] as string;
      if (body.length !== MARK_BODY_LENGTH)
        throw new ArchiveFormatError(`${where}: a mark's body is not ${MARK_BODY_LENGTH} characters`);
      const chain = f[6] as string;
      const hash = f[7] ?? sha.latin1(body + (chainHash.get(chain) ?? ''));
      chainHash.set(chain, hash);
      const punchId = f[2] === '' ? null : punch + int(f[2], `${where}: the punch id`);
      if (punchId !== null) punch = punchId;
      date = f[4] === '' ? date : (f[4] as string);
      written += int(f[5], `${where}: the time written`);
      marks.push({
        nsr: int(body.slice(0, 9), `${where}: the NSR`),
        line: body + hash,
        punchId,
        unresolvedId: f[3] === '' ? null : int(f[3], `${where}: the unresolved id`),
        localDate: date,
        writtenAt: written,
        chain,
      });
    } else if (f[0] === 'F' && (f.length === 5 || f.length === 6)) {
      const event = f[3] as string;
      if (!isFactEvent(event)) throw new ArchiveFormatError(`${where}: "${event}" is not a fact of this journal`);
      at += int(f[2], `${where}: the instant`);
      const fact = { seq, nsr: int(f[1], `${where}: the NSR`), at, event, detail: f[4] as string };
      const hash = f[5] ?? factHash(fact, factPrev, sha.utf8);
      facts.push({ ...fact, hash });
      factPrev = hash;
      seq++;
    } else {
      throw new ArchiveFormatError(`${where}: not a record of a journal archive`);
    }
  }
  return { marks, facts };
}

/** A seal read back from JSON, checked field by field; null when it is not one. */
export function parseSeal(text: string): ArchiveSeal | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const s = v as Record<string, unknown>;
  const obj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  const n = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
  const point = (x: unknown): boolean => x === null || (obj(x) && n(x['num']) && typeof x['hash'] === 'string');
  const range = (x: unknown): boolean => obj(x) && n(x['first']) && n(x['last']) && n(x['count']);
  if (
    s['format'] !== ARCHIVE_FORMAT ||
    typeof s['journalId'] !== 'string' ||
    typeof s['name'] !== 'string' ||
    typeof s['month'] !== 'string'
  )
    return null;
  const data = s['data'];
  if (!obj(data) || typeof data['file'] !== 'string' || !n(data['bytes']) || typeof data['sha256'] !== 'string')
    return null;
  if (!range(s['marks']) || !range(s['facts']) || !obj(s['chains']) || !obj(s['factChain']) || !obj(s['dates']))
    return null;
  for (const c of Object.values(s['chains']))
    if (!obj(c) || !point(c['before']) || c['after'] === null || !point(c['after'])) return null;
  if (!point(s['factChain']['before']) || !point(s['factChain']['after'])) return null;
  if (
    typeof s['dates']['from'] !== 'string' ||
    typeof s['dates']['to'] !== 'string' ||
    typeof s['createdAt'] !== 'string'
  )
    return null;
  const p = s['punchIds'];
  if (p !== null && !(obj(p) && n(p['min']) && n(p['max']))) return null;
  return v as ArchiveSeal;
}
