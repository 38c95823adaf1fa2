/**
 * The roster tab's lists drawn from their views (roster-view.ts words them): the records the last
 * sync skipped, the employees not allowed to record by API, and the roster's health with the
 * evidence gaps (no CPF, no employer).
 */
import { h } from '../dom.js';
import { t, type Lang } from '../i18n.js';
import type { EvidenceGapsView, HealthView, NotAllowedView, SkippedView } from '../roster-view.js';
import type { StatusView } from '../../../src/contract.js';

export function skippedNodes(sk: SkippedView, count: number, lang: Lang): HTMLElement[] {
  return [
    h('h2', { class: 'alert-title', text: t(lang, 'roster.skippedTitle') }),
    h('p', {
      class: 'alert-body',
      testid: 'roster-skipped-count',
      data: { count: String(count) },
      text: sk.summary,
    }),
    h('ul', { class: 'skipped-list' }, [
      ...sk.examples.map((e) => h('li', { testid: 'skipped-example', text: e })),
      sk.more ? h('li', { class: 'muted', text: sk.more }) : null,
    ]),
  ];
}

export function notAllowedNodes(na: NotAllowedView): (HTMLElement | null)[] {
  return [
    h('h2', { text: na.title }),
    h('p', { class: 'muted', text: na.help }),
    h('ul', { class: 'health-list' }, [
      ...na.rows.map((e) =>
        h('li', { testid: 'not-allowed-row', data: { employeeId: e.id, held: String(e.heldPunches) } }, [
          h('span', { class: 'hl-name', text: e.name }),
          h('span', { class: 'hl-missing', text: e.held }),
        ]),
      ),
      na.more ? h('li', { class: 'muted', text: na.more }) : null,
    ]),
  ];
}

export function healthNodes(
  hv: HealthView,
  gaps: EvidenceGapsView,
  health: StatusView['roster']['health'],
  lang: Lang,
): (HTMLElement | null)[] {
  const gapNodes = gaps
    ? [
        ...gaps.lines.map((text) => h('p', { class: 'warn', testid: 'roster-evidence-gap', text })),
        h(
          'ul',
          { class: 'health-list' },
          gaps.employees.map((e) =>
            h('li', { testid: 'roster-evidence-row', data: { employeeId: e.id } }, [
              h('span', { class: 'hl-name', text: e.name }),
              h('span', { class: 'hl-missing', text: e.missing }),
            ]),
          ),
        ),
      ]
    : [];

  if (hv.ok) return [h('p', { class: 'muted', text: hv.text }), ...gapNodes];
  return [
    h('p', { class: 'warn', text: hv.counts }),
    hv.timeZone
      ? h('p', {
          class: 'warn',
          testid: 'roster-bad-timezone',
          data: { count: String(health.badTimeZone) },
          text: hv.timeZone,
        })
      : null,
    h(
      'ul',
      { class: 'health-list' },
      hv.employees.map((e) =>
        h('li', {}, [
          h('span', { class: 'hl-name', text: e.name }),
          h('span', { class: 'hl-missing', text: e.missing }),
        ]),
      ),
    ),
    ...gapNodes,
  ];
}
