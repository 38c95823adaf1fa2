import type { StoredFacts } from '../../agent/diagnostics/doctor-reads.js';
import { humanMs, ok, warn, type CheckResult } from './result.js';

const MB = 1e6;
const KINDS = {
  missing: 'missing',
  changed: 'not the file that was sealed',
  unsigned: 'sealed unsigned although afd.signingKey is set',
} as const;

/**
 * The journal's monthly archives (issue 26 item 9): months kept, their size, the last archiving run.
 * A warning for an archive missing (its marks have left the database), changed, or unsigned while a
 * key is set, and for a last run that failed; `journal verify` reads and hashes them in full.
 */
export function journalArchivesCheck(facts: StoredFacts | null, now: number): CheckResult {
  const name = 'journal archives';
  const a = facts?.journalArchives;
  if (!a) return ok(name, 'no journal yet');
  const kept =
    a.months === 0
      ? 'none yet'
      : `${a.months} month${a.months === 1 ? '' : 's'} (${a.oldestMonth} to ${a.newestMonth}), ${(a.bytes / MB).toFixed(1)} MB`;
  const p = a.lastPass;
  const run =
    p === null
      ? 'not run yet'
      : p.outcome === 'failed'
        ? `last run ${humanMs(now - p.at)} ago FAILED: ${p.error ?? 'unknown'}`
        : `last run ${humanMs(now - p.at)} ago: ${p.archives} written`;
  const problems = a.problems.map((x) => `${x.name} ${KINDS[x.kind]}`);
  if (problems.length > 0)
    return warn(
      name,
      `${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `, and ${problems.length - 5} more` : ''} (${kept}; ${run})`,
    );
  if (p?.outcome === 'failed') return warn(name, `${kept}; ${run}`);
  return ok(name, `${kept}; ${run}`);
}
