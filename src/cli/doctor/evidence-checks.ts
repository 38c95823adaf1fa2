/**
 * Issue 26: workers whose punches the evidence cannot fully name, listed before they punch: no CPF
 * (their marks carry twelve zeros), no employer of their own (receipts and AFD fall back to the
 * configured employer). A warning, never a failure: their punches are taken and kept all the same.
 */
import type { StoredFacts } from '../../agent/doctor-reads.js';
import { ok, warn, type CheckResult } from './result.js';

const names = (list: readonly string[], count: number): string => `${list.join(', ')}${count > list.length ? `, and ${count - list.length} more` : ''}`;

export function rosterEvidenceCheck(facts: StoredFacts | null, employerConfigured: boolean): CheckResult {
  const name = 'roster evidence';
  const g = facts?.evidenceGaps;
  if (!g) return ok(name, 'no roster yet');
  const problems: string[] = [];
  if (g.noCpf.count > 0) problems.push(`${g.noCpf.count} without a CPF (the AFD shows twelve zeros for their punches): ${names(g.noCpf.employees.map((e) => e.name), g.noCpf.count)}`);
  const fallback = g.noPaymentSource.count + g.noEmployer.count;
  if (fallback > 0) {
    const who = names([...g.noPaymentSource.names, ...g.noEmployer.employees.map((e) => `${e.name} (${e.reason === 'unread' ? 'employer not read yet' : 'employer unknown to the service'})`)], fallback);
    problems.push(`${fallback} without an employer of their own, so receipts and AFD name the configured employer${employerConfigured ? '' : ' (none is configured: set employer.name and employer.cnpj)'}: ${who}`);
  }
  return problems.length > 0 ? warn(name, problems.join('; ')) : ok(name, 'every worker has a CPF and an employer');
}
