import type { AgentStatus } from '../../agent/status/status.js';
import type { Say } from './status-say.js';

type Archives = NonNullable<NonNullable<AgentStatus['journal']>['archives']>;

/** The archives' problems shown at most, one line each (the rest: `timeclock doctor`, `journal verify`). */
const PROBLEMS_SHOWN = 5;

/**
 * The journal's monthly archives (issue 26 item 9): the months kept, their size and the last run on
 * one line; an archive missing, changed or unsigned while a key is set, a line of its own.
 */
export function archiveLines(say: Say, s: AgentStatus): string[] {
  const a = s.journal?.archives;
  if (!a) return [];
  const kept =
    a.months === 0
      ? say.text('status.archives.none')
      : say.text('status.archives.kept', {
          n: String(a.months),
          from: a.oldestMonth ?? '?',
          to: a.newestMonth ?? '?',
          size: say.mb(a.bytes),
        });
  const lines = [say.label('status.label.archives') + `${kept}; ${runText(say, a.lastPass)}`];
  for (const p of a.problems.slice(0, PROBLEMS_SHOWN)) {
    const params = { name: p.name, setting: 'afd.signingKey' };
    lines.push(
      say.valueIndent +
        say.text(
          p.kind === 'missing'
            ? 'status.archives.missing'
            : p.kind === 'changed'
              ? 'status.archives.changed'
              : 'status.archives.unsigned',
          params,
        ),
    );
  }
  return lines;
}

function runText(say: Say, r: Archives['lastPass']): string {
  if (r === null) return say.text('status.archives.neverRun');
  if (r.outcome === 'failed')
    return say.text('status.archives.runFailed', {
      ago: say.since(r.at),
      error: r.error ?? say.text('status.unknown'),
    });
  return say.text('status.archives.run', {
    ago: say.since(r.at),
    archives: String(r.archives),
    marks: String(r.marks),
  });
}
