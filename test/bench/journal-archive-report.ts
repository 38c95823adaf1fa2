/**
 * The journal archive bench's report (test/bench/journal-archive.bench.ts): the whole database file
 * after a year with the default retention and archiving, where its bytes go, the archives, five
 * years, and the same site before migration 17 (schema version 15, 90-day retention) beside it.
 */
import type { JournalVerification } from '../../src/store/journal/journal-verify.js';
import { DEFAULT_RETENTION } from '../../src/store/upkeep/retention.js';
import type { Result } from './report.js';
import { stepText, type Step } from './sqlite-steps.js';

const MB = 1e6;

export type ArchiveFigures = {
  days: number;
  afterDays: number;
  yearPunches: number;
  punches: number;
  archived: number;
  dbEnd: number;
  peak: number;
  archives: number;
  base: { punches: number; bytes: number; perPunch: number };
  objects: { name: string; bytes: number }[];
  columns: Record<'marks' | 'facts' | 'punches', { column: string; bytes: number }[]>;
  marksInDb: number;
  punchesInDb: number;
  logLines: number;
  before: { sample: number; costs: { name: string; perPunch: number }[]; keptDays: number };
  work: {
    archiveMs: number;
    writeAndArchiveMs: number;
    longestStep: number;
    /** The longest synchronous SQLite steps on the loop during the passes (sqlite-steps.ts). */
    longestSql: Step[];
    stall: number;
    quietStall: number;
    stalls: number[];
  };
  verify: JournalVerification;
};

const isJournal = (name: string) => name.startsWith('journal_');

export function archiveReport(f: ArchiveFigures): Result {
  const { days, punches, archived, dbEnd, peak, archives, base, objects, marksInDb, punchesInDb } = f;
  const archivePerPunch = archives / Math.max(1, archived);
  const baseYear = base.perPunch * f.yearPunches;
  const fiveYears = dbEnd + archivePerPunch * f.yearPunches * 5;
  // The journal's rows are the same in both versions; the rest of the file is the punches' (and small tables').
  const journalBytes = objects.filter((o) => isJournal(o.name)).reduce((a, o) => a + o.bytes, 0);
  const punchObjects = objects.filter((o) => !isJournal(o.name));
  const punchBytes = punchObjects.reduce((a, o) => a + o.bytes, 0);
  const beforePerPunch = f.before.costs.reduce((a, o) => a + o.perPunch, 0);
  const beforeKept = (f.yearPunches / 365) * f.before.keptDays;
  const beforeFile = dbEnd - punchBytes + beforePerPunch * beforeKept;
  const perPunch = (bytes: number) => +(bytes / Math.max(1, punchesInDb)).toFixed(1);
  const perMark = (bytes: number) => +(bytes / Math.max(1, marksInDb)).toFixed(1);
  const raw = { ...f, archivePerPunch, baseYear, fiveYears, journalBytes, punchBytes, beforePerPunch, beforeFile };
  return {
    name: 'journal-archive',
    title: `the database of a year: ${punches.toLocaleString('en')} punches over ${days} days, default settings (delivered punches kept ${DEFAULT_RETENTION.deliveredDays} days, their delivery log ${DEFAULT_RETENTION.deliveryLogDays}, the journal archived after ${f.afterDays})`,
    tables: [
      {
        title: 'sizes (MB = 10^6 bytes)',
        columns: ['', 'MB', 'bytes per punch'],
        rows: [
          [
            'kept whole, no retention or archiving (tenth of the year measured, scaled)',
            +(baseYear / MB).toFixed(1),
            Math.round(base.perPunch),
          ],
          [
            `BEFORE (schema 15, delivered punches kept ${f.before.keptDays} days with their delivery log): the whole file`,
            +(beforeFile / MB).toFixed(1),
            null,
          ],
          [
            `  its punches, ${Math.round(beforeKept).toLocaleString('en')} kept (a sample of ${f.before.sample.toLocaleString('en')} written through the outbox at that layout)`,
            +((beforePerPunch * beforeKept) / MB).toFixed(1),
            Math.round(beforePerPunch),
          ],
          [`AFTER: the whole database file at the end of the year (${days} days)`, +(dbEnd / MB).toFixed(1), null],
          [
            `  the punches' tables and indexes (${punchesInDb.toLocaleString('en')} punches in it)`,
            +(punchBytes / MB).toFixed(1),
            perPunch(punchBytes),
          ],
          [
            `  the journal's rows (${marksInDb.toLocaleString('en')} marks in it)`,
            +(journalBytes / MB).toFixed(1),
            perMark(journalBytes),
          ],
          ['the whole file, peak over the run', +(peak / MB).toFixed(1), null],
          [
            `archives (${archived.toLocaleString('en')} punches)`,
            +(archives / MB).toFixed(2),
            +archivePerPunch.toFixed(1),
          ],
          ['five years: the file at the end + 5 × a year of archives', +(fiveYears / MB).toFixed(1), null],
        ],
      },
      {
        title: `where the file's bytes go at the end (pages; per punch: of the ${punchesInDb.toLocaleString('en')} punches, per mark: of the ${marksInDb.toLocaleString('en')} marks)`,
        columns: ['table or index', 'MB', 'bytes per punch or mark'],
        rows: objects.map((o) => [
          o.name,
          +(o.bytes / MB).toFixed(2),
          isJournal(o.name) ? perMark(o.bytes) : perPunch(o.bytes),
        ]),
      },
      {
        title: `before: schema 15, a punch written through the outbox (${f.before.sample.toLocaleString('en')} delivered), bytes per punch`,
        columns: ['table or index', 'bytes per punch'],
        rows: f.before.costs.map((o) => [o.name, +o.perPunch.toFixed(1)]),
      },
      {
        title: 'columns: payload bytes per row (record headers and page overhead not included)',
        columns: ['table.column', 'bytes per row'],
        rows: [
          ...f.columns.punches.map((c) => [`punches.${c.column}`, perPunch(c.bytes)]),
          ...f.columns.marks.map((c) => [`journal_marks.${c.column}`, perMark(c.bytes)]),
          ...f.columns.facts.map((c) => [`journal_facts.${c.column}`, perMark(c.bytes)]),
        ],
      },
      {
        title: 'work',
        columns: ['', 'ms', 'note'],
        rows: [
          ['writing the year and its daily retention passes', Math.round(f.work.writeAndArchiveMs), ''],
          [
            'retention passes with archiving, all together',
            Math.round(f.work.archiveMs),
            `${days} daily passes (RetentionWatch.runNow)`,
          ],
          ["  longest synchronous step (the pass's longestBatchMs)", +f.work.longestStep.toFixed(1), ''],
          [
            '  longest synchronous SQLite step on the loop (sqlite-steps.ts)',
            +(f.work.longestSql[0]?.ms ?? 0).toFixed(1),
            f.work.longestSql.map(stepText).join('; '),
          ],
          [
            '  event loop delay while archiving, max (monitorEventLoopDelay)',
            +f.work.stall.toFixed(1),
            `passes that wrote an archive: ${f.work.stalls.map((x) => x.toFixed(0)).join(', ')} ms; the others at most ${f.work.quietStall.toFixed(0)} ms`,
          ],
          [
            'verify at the end (archives + database)',
            f.verify.ms,
            f.verify.ok
              ? `ok, ${f.verify.marks} marks, ${f.verify.facts} facts`
              : `NOT OK: ${f.verify.firstProblem?.message}`,
          ],
        ],
      },
    ],
    targets: [
      { what: 'one-year database, the whole file (MB)', value: dbEnd / MB, target: '< 60', met: dbEnd / MB < 60 },
      { what: 'archives, bytes per punch', value: archivePerPunch, target: '< 60', met: archivePerPunch < 60 },
      { what: 'five years in all (MB)', value: fiveYears / MB, target: '< 250', met: fiveYears / MB < 250 },
      {
        what: 'event loop delay while archiving, max (ms)',
        value: f.work.stall,
        target: '≤ 50',
        met: f.work.stall <= 50,
      },
    ],
    notes: [
      'every punch is written through the outbox (row, mark, sending, delivered and its fact) and the real retention pass runs after every day with the default settings; the file is measured with its write-ahead log after the last pass gave its free pages back',
      `delivery log lines (punch_journal) left at the end: ${f.logLines.toLocaleString('en')} (the last ${DEFAULT_RETENTION.deliveryLogDays} days' punches)`,
      `five years = the file at the end + archives per punch × ${f.yearPunches.toLocaleString('en')} × 5 (archives are kept journal.keepYears = 5)`,
      'before = the file at the end with its punches replaced by schema 15’s: per punch from the sample, × the punches of 90 days (the journal rows are the same in both)',
    ],
    raw,
  };
}
