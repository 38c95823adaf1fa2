/**
 * The admin screen's journal archives (issue 26 item 9), in the journal's tab below the receipt
 * lookup and the comparison: the months moved out of the database into sealed files beside it, their
 * size on the disk, the last archiving run, and each archive missing, changed, or unsigned while
 * afd.signingKey is set — status's `journal.archives`, what `timeclock status` and doctor show.
 */
import type { StatusView } from '../../../src/contract.js';
import { fill, h } from '../dom.js';
import { formatDateTime } from '../format.js';
import { t, type Lang } from '../i18n.js';
import { row, type Panel } from './admin-common.js';
import type { Ctx } from './view.js';

type Archives = NonNullable<NonNullable<StatusView['journal']>['archives']>;

/** Decimal megabytes, in the screen's language (the CLI says MB = 10^6 bytes too). */
const megabytes = (bytes: number, lang: Lang): string =>
  `${new Intl.NumberFormat(lang, { maximumFractionDigits: bytes < 10e6 ? 2 : 1 }).format(bytes / 1e6)} MB`;

const problemKey = {
  missing: 'status.archives.missing',
  changed: 'status.archives.changed',
  unsigned: 'status.archives.unsigned',
} as const;

function rows(a: Archives, c: Ctx): HTMLElement[] {
  const lang = c.lang;
  const kept =
    a.months === 0
      ? t(lang, 'archives.none')
      : t(lang, 'archives.kept', { n: a.months, from: a.oldestMonth ?? '?', to: a.newestMonth ?? '?' });
  const run = a.lastPass;
  const when = run === null ? '' : formatDateTime(run.at, lang, c.timeZone);
  const ran =
    run === null
      ? t(lang, 'archives.neverRun')
      : run.outcome === 'failed'
        ? t(lang, 'archives.runFailed', { when, error: run.error ?? '?' })
        : t(lang, 'archives.run', { when, archives: run.archives, marks: run.marks });
  return [
    row(t(lang, 'archives.months'), kept, 'archives-months'),
    row(t(lang, 'archives.size'), megabytes(a.bytes, lang), 'archives-size'),
    row(t(lang, 'archives.lastRun'), ran, 'archives-last-run'),
  ];
}

export function archivesPanel(ctx: Ctx): Panel {
  const lang = ctx.lang;
  const facts = h('dl', { class: 'facts', testid: 'archives-summary' });
  const problems = h('div', { testid: 'archives-problems' });
  const el = h('div', { class: 'panel-body archives-panel', testid: 'archives-panel' }, [
    h('h2', { text: t(lang, 'archives.title') }),
    h('p', { class: 'muted', text: t(lang, 'archives.hint') }),
    problems,
    facts,
  ]);
  let shown = '';
  return {
    el,
    update(c) {
      const a = c.status?.journal?.archives ?? null;
      // Statuses come every few seconds: the panel is redrawn only when what it shows changed.
      const key = JSON.stringify([a, c.timeZone]);
      if (key === shown) return;
      shown = key;
      if (a === null) {
        fill(facts, [h('p', { class: 'muted', text: t(lang, 'archives.unknown'), testid: 'archives-unknown' })]);
        fill(problems, []);
        return;
      }
      fill(facts, rows(a, c));
      // Only when something is wrong: the warning's box shows even empty.
      fill(
        problems,
        a.problems.map((p) =>
          h('p', {
            class: 'token-warning',
            testid: 'archives-problem',
            text: t(lang, problemKey[p.kind], { name: p.name, setting: 'afd.signingKey' }),
            attrs: { role: 'alert' },
          }),
        ),
      );
    },
  };
}
