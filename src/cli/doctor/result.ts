/** What one check of `timeclock doctor` found: one line for the operator, one object in --json. */
export type CheckStatus = 'ok' | 'warn' | 'fail';
export type CheckResult = { check: string; status: CheckStatus; detail: string };

export const ok = (check: string, detail: string): CheckResult => ({ check, status: 'ok', detail });
export const warn = (check: string, detail: string): CheckResult => ({ check, status: 'warn', detail });
export const fail = (check: string, detail: string): CheckResult => ({ check, status: 'fail', detail });

/** Warnings alone do not fail the box: only a `fail` does. */
export function failed(results: readonly CheckResult[]): boolean {
  return results.some((r) => r.status === 'fail');
}

/** `ok   configuration: …`, the status padded so the names line up. */
export function resultLines(results: readonly CheckResult[]): string {
  return results.map((r) => `${r.status.padEnd(4)} ${r.check}: ${r.detail}`).join('\n');
}

/** Milliseconds as people read an age or an offset: "45 s", "3.2 min", "7.5 h", "2.0 d". */
export function humanMs(ms: number): string {
  const a = Math.abs(ms);
  if (a < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (a < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  if (a < 86_400_000) return `${(ms / 3_600_000).toFixed(1)} h`;
  return `${(ms / 86_400_000).toFixed(1)} d`;
}

/** The first line of an error's message (native layers and tools add stack-like detail below). */
export function firstLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.split('\n')[0]?.trim() ?? '';
}
