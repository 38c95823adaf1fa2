import { MARK_BODY_LENGTH } from '../../domain/afd/mark.js';
import { clockAdjustedLine, restoredGap } from '../../domain/punch/journal-fact.js';
import type { Db } from '../database.js';
import { headPathFor, readHead, type JournalHead } from './journal-nsr.js';
import { mirrorHeadFileFor } from './nsr-mirror.js';
import { checkHead, checkMarkAgainstPunch, REANCHORED_MOVE, type MarkPunchRow } from './journal-agree.js';
import { parseSeal } from '../../domain/punch/journal-archive-format.js';
import { archivedThrough } from './journal-archive.js';
import { walkArchives, type SignatureCheck } from './journal-archive-verify.js';
import { photoDirOfDb } from './photo-files.js';
import { PhotoSeals } from './photo-verify.js';
import {
  checkFact,
  checkMark,
  checkRef,
  type FactRow,
  type JournalProblem,
  type MarkRow,
  type PunchRef,
} from './journal-row-checks.js';

/**
 * Checks the evidence journal end to end: both chains recomputed, every NSR accounted for, every
 * punch's NSR with its mark. In chunks by key (never OFFSET), the event loop free between them, so
 * the agent runs it in the background beside capture. It finds accidents and edits that did not
 * recompute the chain; a hash chain without a key cannot stop someone who recomputes every hash
 * after their change (the signed AFD export and the workers' receipts anchor it outside).
 */

export type { JournalProblem } from './journal-row-checks.js';
export type JournalVerification = {
  ok: boolean;
  marks: number;
  facts: number;
  firstProblem: JournalProblem | null;
  ms: number;
};
/** `chunk`: rows per step, fixed (tests); by default sized as it goes so a step takes about TARGET_MS. */
export type VerifyOptions = {
  chunk?: number;
  signal?: AbortSignal;
  /**
   * Where the chain's head is mirrored outside the data directory (journal.nsrMirrorPath); the one beside the database
   * is always read.
   */
  mirrorDir?: string | null;
  /** Checks an archive seal's detached signature (.seal.json.p7s); absent: only its presence is checked. */
  checkSignature?: SignatureCheck | null;
};

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One step on the event loop's thread: about this long, on a fast disk or a slow SD card alike. */
const TARGET_MS = 10;
const CHUNK = { first: 200, min: 50, max: 10_000 };

/**
 * Rows per step: halved after a step that took more than TARGET_MS, grown by half after one that took less than half of
 * it.
 */
type Stepper = { size: number; took(ms: number): void };

function stepper(fixed: number | undefined): Stepper {
  const s = {
    size: fixed ?? CHUNK.first,
    took(ms: number) {
      if (fixed !== undefined) return;
      if (ms > TARGET_MS) s.size = Math.max(CHUNK.min, Math.floor(s.size / 2));
      else if (ms < TARGET_MS / 2) s.size = Math.min(CHUNK.max, Math.ceil(s.size * 1.5));
    },
  };
  return s;
}

/**
 * Visits every row `fetch` returns, by key after key (`keyOf`), a step at a time with the event loop
 * free between steps; ends early when `done()` says so.
 */
async function walk<R>(
  step: Stepper,
  fetch: (after: number, n: number) => R[],
  keyOf: (r: R) => number,
  visit: (r: R) => void,
  done: () => boolean,
  start = 0,
): Promise<void> {
  for (let after = start, full = true; full && !done(); await yieldToLoop()) {
    const n = step.size;
    const s0 = performance.now();
    const rows = fetch(after, n);
    for (const r of rows) {
      visit(r);
      after = keyOf(r);
    }
    step.took(performance.now() - s0);
    full = rows.length === n;
  }
}

/** A mark whose punch row is gone (retention) or not read (an archived mark). */
const NO_PUNCH = {
  punch_id: null,
  local_date: null,
  local_time: null,
  captured_at: null,
  employee_key: null,
  roster_cpf: null,
} as const;

export async function verifyJournal(db: Db, o: VerifyOptions = {}): Promise<JournalVerification> {
  const t0 = performance.now();
  const step = stepper(o.chunk);
  const stmts = {
    marks: db.prepare('SELECT nsr, line, chain FROM journal_marks WHERE nsr > @after ORDER BY nsr LIMIT @n'),
    // The punch rows that carry those NSRs (while retention keeps them: punch_history, migration 19) and their
    // employees' CPF in the roster; a second read by NSR range, as a view on the right of a LEFT JOIN is not merged.
    marksPunches: db.prepare(
      `SELECT p.nsr, p.id AS punch_id, p.local_date, p.local_time, p.captured_at, p.employee_key, r.cpf AS roster_cpf
       FROM punch_history p LEFT JOIN roster_employees r ON r.id = p.employee_key WHERE p.nsr BETWEEN @lo AND @hi`,
    ),
    // A fact about an archived NSR (at or below the watermark) has its mark in an archive.
    facts: db.prepare(
      'SELECT f.seq, f.nsr, f.at, f.event, f.detail, f.hash, (m.nsr IS NOT NULL OR f.nsr <= @archived) AS has_mark FROM journal_facts f LEFT JOIN journal_marks m ON m.nsr = f.nsr WHERE f.seq > @after ORDER BY f.seq LIMIT @n',
    ),
    punches: db.prepare(
      'SELECT p.id, p.nsr, CASE WHEN p.nsr <= @archived THEN p.nsr ELSE m.nsr END AS mark, CASE WHEN p.nsr <= @archived THEN NULL ELSE m.punch_id END AS owner FROM punch_history p LEFT JOIN journal_marks m ON m.nsr = p.nsr WHERE p.id > @after ORDER BY p.id LIMIT @n',
    ),
    unresolved: db.prepare(
      'SELECT u.id, u.nsr, CASE WHEN u.nsr <= @archived THEN u.nsr ELSE m.nsr END AS mark, CASE WHEN u.nsr <= @archived THEN NULL ELSE m.unresolved_id END AS owner FROM unresolved_punches u LEFT JOIN journal_marks m ON m.nsr = u.nsr WHERE u.id > @after ORDER BY u.id LIMIT @n',
    ),
  };
  const stopped = () => o.signal?.aborted === true;
  const found: { marks: JournalProblem | null; facts: JournalProblem | null; punches: JournalProblem | null } = {
    marks: null,
    facts: null,
    punches: null,
  };

  // Read before the walk: a head written later names a mark the walk may not reach.
  const heads = headsOf(db, o.mirrorDir ?? null);
  // Facts first: their 'restored' facts explain the NSR gaps a restore left, 'clock_adjusted' ones the NSRs of type 4
  // records.
  const gaps = new Map<number, number>();
  const moves = new Map<number, { from: string; to: string }>();
  let facts = 0;
  let prevFact = { seq: 0, hash: '' };
  // Archived rows first (store/journal/journal-archive-verify.ts), through the same checks; the database's after the
  // watermark.
  const archived = archivedThrough(db) ?? { nsr: 0, seq: 0 };
  // Issue 31: each punch photo against the SHA-256 its fact sealed.
  const photos = new PhotoSeals();
  const visitFact = (r: FactRow) => {
    facts++;
    photos.note(r);
    found.facts ??= checkFact(r, prevFact.seq, prevFact.hash);
    const gap = r.event === 'restored' && typeof r.detail === 'string' ? restoredGap(r.detail) : null;
    if (gap) gaps.set(gap.from, gap.to);
    if (r.event === 'clock_adjusted' && typeof r.detail === 'string') {
      const line = clockAdjustedLine(r.detail);
      if (line === null || Number(line.slice(0, 9)) !== r.nsr)
        found.facts ??= {
          seq: r.seq,
          nsr: r.nsr,
          message: `fact ${r.seq}: a clock adjustment that is not a type 4 record of NSR ${r.nsr}`,
        };
      gaps.set(r.nsr, r.nsr);
    }
    const move = r.event === 'reanchored' && typeof r.detail === 'string' ? REANCHORED_MOVE.exec(r.detail) : null;
    if (move) moves.set(r.nsr, { from: `${move[1]} ${move[2]}`, to: `${move[3]} ${move[4]}` });
    prevFact = { seq: r.seq, hash: typeof r.hash === 'string' ? r.hash : '' };
  };
  const pause = yieldToLoop;
  const checkSignature = o.checkSignature ?? null;
  const ignoreMark = () => undefined;
  const archiveFacts = await walkArchives(db, {
    part: 'facts',
    visitMark: ignoreMark,
    visitFact: (f) => visitFact({ ...f, has_mark: 1 }),
    pause,
    stopped,
    checkSignature,
    skipped: (_row, after) => void (after && (prevFact = { seq: after.num, hash: after.hash })),
  });
  found.facts = archiveFacts.problem ?? found.facts;
  await walk(
    step,
    (after, n) => stmts.facts.all({ archived: archived.nsr, after, n }) as FactRow[],
    (r) => r.seq,
    visitFact,
    stopped,
    archived.seq,
  );

  let marks = 0;
  let prev: { nsr: number; hash: string } | null = null;
  const hashes = new Map<number, string>();
  // Each employer's marks chain among themselves (migration 12); NSRs are one sequence.
  const lastOfChain = new Map<string, { nsr: number; hash: string }>();
  const visitMark = (r: MarkRow & MarkPunchRow) => {
    marks++;
    const chain = typeof r.chain === 'string' ? r.chain : '';
    found.marks ??=
      checkMark(r, prev, lastOfChain.get(chain) ?? null, gaps) ?? checkMarkAgainstPunch(r, moves.get(r.nsr) ?? null);
    prev = { nsr: r.nsr, hash: typeof r.line === 'string' ? r.line.slice(MARK_BODY_LENGTH) : '' };
    lastOfChain.set(chain, prev);
    for (const h of heads) if (h.head.nsr === r.nsr) hashes.set(r.nsr, prev.hash);
  };
  // An archived mark is checked in its chain; against its punch row only while in the database (the row is usually
  // gone).
  const archiveMarks = await walkArchives(db, {
    part: 'marks',
    visitMark: (m) => visitMark({ ...NO_PUNCH, nsr: m.nsr, line: m.line, chain: m.chain }),
    visitFact: () => undefined,
    pause,
    stopped,
    checkSignature,
    skipped: (row) => {
      // Removed with a fact: the chain goes on from the hashes its seal named (set by the walk), the NSRs after its
      // last.
      prev = { nsr: row.lastNsr, hash: '' };
      for (const [chain, c] of Object.entries(parseSeal(row.seal)?.chains ?? {}))
        lastOfChain.set(chain, { nsr: c.after.num, hash: c.after.hash });
    },
  });
  // An archive that cannot be read explains the NSRs missing after it: it is named first.
  found.marks = archiveMarks.problem ?? found.marks;
  await walk(
    step,
    (after, n) => {
      const marks = stmts.marks.all({ after, n }) as (MarkRow & { nsr: number })[];
      const lo = marks[0]?.nsr ?? 0;
      const hi = marks.at(-1)?.nsr ?? -1;
      const rows = stmts.marksPunches.all({ lo, hi }) as Omit<MarkPunchRow, 'line'>[];
      const byNsr = new Map(rows.map((p) => [p.nsr, p]));
      return marks.map((m) => ({ ...NO_PUNCH, ...byNsr.get(m.nsr), ...m })) as (MarkRow & MarkPunchRow)[];
    },
    (r) => r.nsr,
    visitMark,
    stopped,
    archived.nsr,
  );
  if (!stopped())
    for (const h of heads)
      found.marks ??= checkHead(h, hashes.get(h.head.nsr) ?? null, (prev as { nsr: number } | null)?.nsr ?? 0, gaps);

  for (const [stmt, what] of [
    [stmts.punches, 'punch'],
    [stmts.unresolved, 'unresolved capture'],
  ] as const) {
    await walk(
      step,
      (after, n) => stmt.all({ archived: archived.nsr, after, n }) as PunchRef[],
      (r) => r.id,
      (r) => void (found.punches ??= checkRef(r, what)),
      () => stopped() || found.punches !== null,
    );
  }

  const photoProblem = stopped() ? null : photos.check(photoDirOfDb(db));
  const firstProblem = stopped()
    ? { message: 'verification stopped before the end (the agent is stopping)' }
    : (found.marks ?? found.facts ?? found.punches ?? photoProblem);
  return { ok: firstProblem === null, marks, facts, firstProblem, ms: Math.round(performance.now() - t0) };
}

/** The chain's heads recorded outside the database: beside it, and in the mirror when there is one. */
function headsOf(db: Db, mirrorDir: string | null): { where: string; head: JournalHead }[] {
  const out: { where: string; head: JournalHead }[] = [];
  const beside = headPathFor(db.name);
  const journalId = (
    db.prepare('SELECT journal_id FROM journal_meta WHERE one = 1').get() as { journal_id?: string } | undefined
  )?.journal_id;
  const files: [string | null, string][] = [[beside, 'journal-head.json']];
  if (mirrorDir && journalId && /^[0-9a-f]{32}$/.test(journalId))
    files.push([mirrorHeadFileFor(mirrorDir, journalId), `the mirror ${mirrorDir}`]);
  for (const [file, where] of files) {
    const head = file === null ? null : readHead(file);
    if (head && head.journalId === journalId) out.push({ where, head });
  }
  return out;
}
