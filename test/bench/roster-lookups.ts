/**
 * Part 1 of the roster bench (roster.bench.ts): credential lookup latency with 100,000 employees
 * and 100,000 enrolled badges.
 *
 * A real SQLite file (openDatabase in a temp dir, same pragmas as the terminal), the roster written
 * by Roster.replace from the generated seed, one badge per employee enrolled by Identities.enroll
 * (one transaction). Each `resolveCredential(code, input, rules, lookups)` call, with the default
 * identity rules of the config, is timed on its own; the kinds are interleaved call by call so they
 * all see the same machine. Baseline: a bare primary-key `SELECT * FROM roster_employees WHERE id = ?`
 * on the same connection, interleaved likewise.
 */
import { configSchema } from '../../src/config.js';
import { cpfFromBase } from '../../src/domain/people/cpf.js';
import {
  resolveCredential,
  type IdentityRules,
  type InputKind,
  type LookupKey,
  type Resolution,
} from '../../src/domain/people/identity.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { openDatabase, type DurableDb as Db } from '../../src/store/database.js';
import { Identities } from '../../src/store/roster/identities.js';
import { Roster, type RosterEmployee } from '../../src/store/roster/roster.js';
import { rosterRowOf } from '../../src/sync/roster/roster-rows.js';
import { ratio, summarizeNs, type Cell, type LatencySummary, type Table } from './report.js';
import { EMPLOYEES, mib, type RosterPart } from './roster-setup.js';
import { badgeCode, seededRandom, tempDir } from './support.js';

const LOOKUPS = 20_000;
const LOOKUP_WARMUP = 1_000;
const TARGET_P99_MS = 0.2;

const externalId = (i: number) => String(100000 + i);
const maskCpf = (c: string) => `${c.slice(0, 3)}.${c.slice(3, 6)}.${c.slice(6, 9)}-${c.slice(9)}`;

type Probe = { code: string; expect: { kind: 'found'; key: LookupKey; id: string } | { kind: 'unknown' } };
type LookupKind = {
  name: string;
  input: InputKind;
  probes: Probe[];
  samples: bigint[];
  asExpected: number;
  ambiguous: number;
  wrong: number;
};

type LookupMeasured = {
  kinds: {
    name: string;
    input: InputKind;
    keysTried: string;
    lat: LatencySummary;
    asExpected: number;
    ambiguous: number;
    wrong: number;
  }[];
  baseline: LatencySummary;
  setupMs: { seed: number; rosterReplace: number; enroll: number };
  rosterSize: number;
  enrolled: number;
  dbBytes: number | null;
  cpfShared: number;
};

function judge(kind: LookupKind, probe: Probe, r: Resolution<RosterEmployee>): void {
  const e = probe.expect;
  if (e.kind === 'unknown') {
    if (r.kind === 'unknown') kind.asExpected++;
    else kind.wrong++;
  } else if (r.kind === 'found' && r.key === e.key && r.employee.id === e.id) kind.asExpected++;
  else if (r.kind === 'ambiguous' && r.key === e.key) kind.ambiguous++;
  else kind.wrong++;
}

async function measureLookups(): Promise<LookupMeasured> {
  const dir = tempDir('timeclock-bench-roster-');
  let db: Db | null = null;
  try {
    db = openDatabase(dir.dir);
    let t0 = performance.now();
    const seed = generatedSeed({ employees: EMPLOYEES, sites: 1 });
    const seedMs = performance.now() - t0;
    const employees = seed.employees.flatMap((e) => {
      const r = rosterRowOf(e);
      return r.ok ? [r.employee] : [];
    });

    t0 = performance.now();
    const roster = new Roster(db);
    roster.replace(employees);
    const rosterMs = performance.now() - t0;

    t0 = performance.now();
    const identities = new Identities(db);
    const at = Date.now();
    db.transaction(() => {
      for (let i = 0; i < employees.length; i++)
        identities.enroll(badgeCode(i), (employees[i] as RosterEmployee).id, at, 'bench');
    })();
    const enrollMs = performance.now() - t0;

    const rules: IdentityRules = configSchema.parse({ dataDir: '.' }).identity;
    const lookups = identities.lookups;
    const byId = db.prepare('SELECT * FROM roster_employees WHERE id = ?');

    // CPFs of the seed are random: a few are shared by two employees (a CPF lookup then refuses
    // to guess). Counted, not avoided: the lookup does the same work either way.
    const cpfCount = new Map<string, number>();
    for (const e of employees) if (e.cpf) cpfCount.set(e.cpf, (cpfCount.get(e.cpf) ?? 0) + 1);
    let cpfShared = 0;
    for (const n of cpfCount.values()) if (n > 1) cpfShared += n;

    const random = seededRandom(0x5eed);
    const total = LOOKUP_WARMUP + LOOKUPS;
    const pick = () => Math.floor(random() * employees.length);
    const unknownCpf = (): string => {
      for (;;) {
        const base = String(Math.floor(random() * 1e9)).padStart(9, '0');
        if (/^(\d)\1{8}$/.test(base)) continue;
        const cpf = cpfFromBase(base);
        if (!cpfCount.has(cpf)) return cpf;
      }
    };
    const make = (name: string, input: InputKind, probe: (i: number) => Probe): LookupKind => ({
      name,
      input,
      probes: Array.from({ length: total }, () => probe(pick())),
      samples: [],
      asExpected: 0,
      ambiguous: 0,
      wrong: 0,
    });
    const found = (key: LookupKey, i: number) => ({
      kind: 'found' as const,
      key,
      id: (employees[i] as RosterEmployee).id,
    });
    const kinds: LookupKind[] = [
      make('badge code (badge)', 'badge', (i) => ({ code: badgeCode(i), expect: found('badge', i) })),
      make('external_id (id)', 'id', (i) => ({ code: externalId(i), expect: found('external_id', i) })),
      make('registration no. (id)', 'id', (i) => ({
        code: (employees[i] as RosterEmployee).registration_number as string,
        expect: found('registration_number', i),
      })),
      make('masked CPF (id)', 'id', (i) => ({
        code: maskCpf((employees[i] as RosterEmployee).cpf as string),
        expect: found('cpf', i),
      })),
      make('unknown badge (badge)', 'badge', () => ({
        code: `BX${String(Math.floor(random() * 1e8)).padStart(8, '0')}`,
        expect: { kind: 'unknown' },
      })),
      make('unknown, valid CPF (id)', 'id', () => ({ code: unknownCpf(), expect: { kind: 'unknown' } })),
    ];
    const pkIds = Array.from({ length: total }, () => (employees[pick()] as RosterEmployee).id);
    const baseline: bigint[] = [];

    // Interleaved: in round r every kind (and the baseline) runs once, the starting one rotating.
    const runners: ((r: number) => void)[] = [
      ...kinds.map((k) => (r: number) => {
        const p = k.probes[r] as Probe;
        const s = process.hrtime.bigint();
        const res = resolveCredential(p.code, k.input, rules, lookups);
        const dt = process.hrtime.bigint() - s;
        if (r >= LOOKUP_WARMUP) {
          k.samples.push(dt);
          judge(k, p, res);
        }
      }),
      (r: number) => {
        const id = pkIds[r] as string;
        const s = process.hrtime.bigint();
        const row = byId.get(id) as RosterEmployee | undefined;
        const dt = process.hrtime.bigint() - s;
        if (row?.id !== id) throw new Error(`baseline lookup of ${id} found nothing`);
        if (r >= LOOKUP_WARMUP) baseline.push(dt);
      },
    ];
    for (let r = 0; r < total; r++) {
      for (let j = 0; j < runners.length; j++) (runners[(r + j) % runners.length] as (r: number) => void)(r);
    }

    const keysTried = (input: InputKind) => rules.order.filter((k) => rules.allowed[input].includes(k)).join(' → ');
    const pageCount = db.pragma('page_count', { simple: true }) as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    return {
      kinds: kinds.map((k) => ({
        name: k.name,
        input: k.input,
        keysTried: keysTried(k.input),
        lat: summarizeNs(k.samples),
        asExpected: k.asExpected,
        ambiguous: k.ambiguous,
        wrong: k.wrong,
      })),
      baseline: summarizeNs(baseline),
      setupMs: { seed: seedMs, rosterReplace: rosterMs, enroll: enrollMs },
      rosterSize: roster.size(),
      enrolled: identities.enrollmentCount(),
      dbBytes: Number.isFinite(pageCount * pageSize) ? pageCount * pageSize : null,
      cpfShared,
    };
  } finally {
    db?.close();
    dir.cleanup();
  }
}

export async function rosterLookups(): Promise<RosterPart> {
  const lookups = await measureLookups();
  const lat = (name: string, s: LatencySummary, keys: string, ok: Cell, amb: Cell, wrong: Cell): Cell[] => [
    name,
    keys,
    s.n,
    s.p50Ms,
    s.p90Ms,
    s.p99Ms,
    s.maxMs,
    s.meanMs,
    ratio(s.p99Ms, lookups.baseline.p99Ms),
    ok,
    amb,
    wrong,
  ];
  const lookupTable: Table = {
    title: `resolveCredential latency per call (ms), ${lookups.rosterSize} employees, ${lookups.enrolled} badges`,
    columns: [
      'code (input)',
      'keys tried',
      'n',
      'p50',
      'p90',
      'p99',
      'max',
      'mean',
      'p99 ÷ PK',
      'as expected',
      'ambiguous',
      'wrong',
    ],
    rows: [
      ...lookups.kinds.map((k) => lat(k.name, k.lat, k.keysTried, k.asExpected, k.ambiguous, k.wrong)),
      lat('SELECT … WHERE id = ? (baseline)', lookups.baseline, 'primary key', null, null, null),
    ],
  };
  const worst = lookups.kinds.reduce((w, k) => (k.lat.p99Ms > w.lat.p99Ms ? k : w));
  const wrongAnswers = lookups.kinds.reduce((s, k) => s + k.wrong, 0);

  const sizeMib = lookups.dbBytes === null ? '—' : mib(lookups.dbBytes).toFixed(1);
  return {
    tables: [lookupTable],
    targets: [
      {
        what: `worst lookup p99 (${worst.name}), ms`,
        value: worst.lat.p99Ms,
        target: `< ${TARGET_P99_MS}`,
        met: worst.lat.p99Ms < TARGET_P99_MS,
      },
      { what: 'lookups answering someone else or nobody', value: wrongAnswers, target: '0', met: wrongAnswers === 0 },
    ],
    notes: [
      `lookups: real SQLite file (WAL, synchronous=FULL, default page cache) of ${sizeMib} MiB; roster from generatedSeed → rosterRowOf → Roster.replace (${Math.round(lookups.setupMs.rosterReplace)} ms), ${lookups.enrolled} badges by Identities.enroll in one transaction (${Math.round(lookups.setupMs.enroll)} ms)`,
      `lookups: default identity rules of the config; each call timed alone (hrtime) after ${LOOKUP_WARMUP} unmeasured calls per kind, employees picked at random (seeded), all kinds and the baseline interleaved call by call`,
      `lookups: "unknown, valid CPF" is an 11-digit CPF with correct check digits that no employee has, so every key of the 'id' input is tried; "unknown badge" tries badge then external_id`,
      `lookups: ${lookups.cpfShared} employees of the seed share their (random) CPF with another; a masked-CPF lookup of one of them answers "ambiguous" (same work, counted apart)`,
    ],
    raw: { lookups: { n: LOOKUPS, warmup: LOOKUP_WARMUP, ...lookups } },
  };
}
