/**
 * What every bench returns, and the helpers to print it. A bench never asserts a timing: it
 * reports figures beside a baseline measured in the same run, and says whether a stated target
 * was met, for a human (or a later issue) to judge.
 */

export type Cell = string | number | null;

export type Table = { title: string; columns: string[]; rows: Cell[][] };

/** A figure compared against a stated target ("≤ 2.0", "≥ 0.98", "0"). `met` null = not measurable. */
export type Target = { what: string; value: number | null; target: string; met: boolean | null };

export type Result = {
  /** Short id, used as the key in bench.json. */
  name: string;
  title: string;
  tables: Table[];
  targets: Target[];
  notes: string[];
  /** Raw numbers, written as they are to test-artifacts/bench.json. */
  raw: Record<string, unknown>;
};

/** Nearest-rank percentile of an already sorted array (p in 0..1). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1] as number;
}

export type LatencySummary = { n: number; p50Ms: number; p90Ms: number; p99Ms: number; maxMs: number; meanMs: number };

/** Summary of individual durations measured with process.hrtime.bigint() (nanoseconds). */
export function summarizeNs(samples: readonly bigint[]): LatencySummary {
  const ms = samples.map((ns) => Number(ns) / 1e6).sort((a, b) => a - b);
  const mean = ms.reduce((s, x) => s + x, 0) / (ms.length || 1);
  return {
    n: ms.length,
    p50Ms: percentile(ms, 0.5),
    p90Ms: percentile(ms, 0.9),
    p99Ms: percentile(ms, 0.99),
    maxMs: ms.length ? (ms[ms.length - 1] as number) : Number.NaN,
    meanMs: mean,
  };
}

export function fmt(v: Cell, digits = 3): string {
  if (v === null) return '—';
  if (typeof v === 'string') return v;
  if (!Number.isFinite(v)) return String(v);
  return Number.isInteger(v) ? String(v) : v.toFixed(digits);
}

export function ratio(a: number, b: number): number | null {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : null;
}

export function renderTable(t: Table): string {
  const cells = t.rows.map((r) => r.map((c) => fmt(c)));
  const widths = t.columns.map((c, i) => Math.max(c.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    '| ' +
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join(' | ') +
    ' |';
  const sep = '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|';
  return [t.title, line(t.columns), sep, ...cells.map(line)].join('\n');
}

export function renderResult(r: Result): string {
  const out: string[] = [`== ${r.title} ==`];
  for (const t of r.tables) out.push('', renderTable(t));
  if (r.targets.length > 0) {
    out.push('', 'targets (reported, not asserted):');
    for (const t of r.targets) {
      const mark = t.met === null ? 'n/a   ' : t.met ? 'met   ' : 'NOT met';
      out.push(`  [${mark}] ${t.what} = ${fmt(t.value)}  (target ${t.target})`);
    }
  }
  if (r.notes.length > 0) {
    out.push('', 'notes:');
    for (const n of r.notes) out.push(`  - ${n}`);
  }
  return out.join('\n');
}
