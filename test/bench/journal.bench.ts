/**
 * The evidence journal's costs (issue 15): bytes per punch (mark + its 'delivered' fact, page
 * overhead included: the same delivered punches written with and without the journal, file sizes
 * compared, and per table and index from SQLite's dbstat); how long the journalling of an upgraded
 * terminal's history takes at its first open; and the verification of a big journal: its length
 * and the event loop's longest wait while it runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DB_FILE_NAME, openDatabase, type Db } from '../../src/store/database.js';
import { EvidenceJournal } from '../../src/store/journal/evidence-journal.js';
import { backfillJournal } from '../../src/store/journal/journal-backfill.js';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import { fillDelivered } from '../helpers/history.js';
import type { Result } from './report.js';
import { tempDir } from './support.js';
import { SqliteSteps, stepText, type Step } from './sqlite-steps.js';

const SIZE_PUNCHES = 10_000;
const BACKFILL_PUNCHES = 200_000;
const VERIFY_MARKS = 100_000;

function closed(db: Db): void {
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

const fileBytes = (dir: string) => fs.statSync(path.join(dir, DB_FILE_NAME)).size;

/** The same delivered punches, with their marks and facts or without (the journal's tables empty). */
function sizes(): { without: number; with: number; perPunch: number; tables: Record<string, number> } {
  const a = tempDir('timeclock-bench-journal-a-');
  const b = tempDir('timeclock-bench-journal-b-');
  try {
    const plain = openDatabase(a.dir);
    fillDelivered(plain, { punches: SIZE_PUNCHES, employees: 500, journal: true });
    closed(plain);
    const db = openDatabase(b.dir);
    fillDelivered(db, { punches: SIZE_PUNCHES, employees: 500, journal: true, evidence: new EvidenceJournal(db) });
    let tables: Record<string, number> = {};
    try {
      const rows = db
        .prepare(
          `SELECT name, SUM(pgsize) AS bytes FROM dbstat WHERE name LIKE 'journal_%' OR name IN ('punches_by_nsr') GROUP BY name`,
        )
        .all() as { name: string; bytes: number }[];
      tables = Object.fromEntries(rows.map((r) => [r.name, r.bytes]));
    } catch {
      /* SQLite built without dbstat: the file sizes alone */
    }
    closed(db);
    const without = fileBytes(a.dir);
    const withJ = fileBytes(b.dir);
    return { without, with: withJ, perPunch: (withJ - without) / SIZE_PUNCHES, tables };
  } finally {
    a.cleanup();
    b.cleanup();
  }
}

function backfill(): { ms: number; marks: number; perThousandMs: number } {
  const d = tempDir('timeclock-bench-journal-up-');
  try {
    const db = openDatabase(d.dir);
    fillDelivered(db, { punches: BACKFILL_PUNCHES, employees: 500, journal: true });
    const journal = new EvidenceJournal(db);
    const t0 = performance.now();
    journal.open();
    const r = backfillJournal(journal, { now: Date.now(), unresolvedZone: 'America/Sao_Paulo' });
    const ms = performance.now() - t0;
    closed(db);
    return { ms, marks: r.marks, perThousandMs: (ms / r.marks) * 1_000 };
  } finally {
    d.cleanup();
  }
}

async function verify(): Promise<{ ms: number; maxDelayMs: number; p99DelayMs: number; ok: boolean; steps: Step[] }> {
  const d = tempDir('timeclock-bench-journal-v-');
  try {
    const db = openDatabase(d.dir);
    fillDelivered(db, { punches: VERIFY_MARKS, employees: 500, journal: false, evidence: new EvidenceJournal(db) });
    const h = monitorEventLoopDelay({ resolution: 2 });
    const steps = new SqliteSteps().install();
    h.enable();
    try {
      const v = await verifyJournal(db);
      h.disable();
      const taken = steps.take();
      closed(db);
      return { ms: v.ms, maxDelayMs: h.max / 1e6, p99DelayMs: h.percentile(99) / 1e6, ok: v.ok, steps: taken };
    } finally {
      steps.uninstall();
    }
  } finally {
    d.cleanup();
  }
}

export async function benchJournal(): Promise<Result> {
  const s = sizes();
  const up = backfill();
  const v = await verify();
  return {
    name: 'journal',
    title: 'evidence journal: bytes per punch, journalling an upgraded history, verifying a big journal',
    tables: [
      {
        title: `file size, ${SIZE_PUNCHES} delivered punches (bytes)`,
        columns: ['', 'bytes'],
        rows: [
          ['without the journal', s.without],
          ['with marks and delivered facts', s.with],
          ['difference per punch', Math.round(s.perPunch)],
          [
            'journal tables and indexes per punch (dbstat)',
            Math.round(
              Object.entries(s.tables)
                .filter(([k]) => k.startsWith('journal_'))
                .reduce((n, [, b]) => n + b, 0) / SIZE_PUNCHES,
            ),
          ],
          ...Object.entries(s.tables).map(([k, n]): [string, number] => [`  dbstat ${k}`, n]),
        ],
      },
      {
        title: 'work',
        columns: ['', 'ms', 'note'],
        rows: [
          [`journal ${up.marks} punches at upgrade`, Math.round(up.ms), `${up.perThousandMs.toFixed(1)} ms per 1,000`],
          [`verify ${VERIFY_MARKS} marks + facts`, v.ms, v.ok ? 'ok' : 'NOT OK'],
          [
            '  event loop delay while verifying, max',
            Number(v.maxDelayMs.toFixed(1)),
            `p99 ${v.p99DelayMs.toFixed(1)} ms`,
          ],
          ['  longest SQLite step while verifying', Number((v.steps[0]?.ms ?? 0).toFixed(1)), v.steps[0]?.what ?? ''],
        ],
      },
    ],
    targets: [
      {
        what: 'event loop delay max while verifying (ms)',
        value: v.maxDelayMs,
        target: '≤ 50',
        met: v.maxDelayMs <= 50,
      },
      {
        what: 'longest synchronous SQLite step while verifying (ms)',
        value: v.steps[0]?.ms ?? 0,
        target: '≤ 20 (a quiet machine)',
        met: (v.steps[0]?.ms ?? 0) <= 20,
      },
    ],
    notes: [
      'marks are 137-character AFD type 7 lines, facts the delivered fact of each punch (a 24-character _id)',
      'the file without the journal still has migration 11: its punches, all without NSR, sit in the partial index punches_unjournalled, so the difference undercounts; dbstat counts the journal alone',
      'the upgrade: fillDelivered rows without NSRs, as a terminal upgraded with history has them',
      `verify, longest SQLite steps (one statement or transaction on the loop, sqlite-steps.ts): ${v.steps.map(stepText).join('; ')}`,
    ],
    raw: { sizes: s, backfill: up, verify: v },
  };
}
