/**
 * The employee's day under a result (renderer/src/day-view.ts has the words): the day's punches as
 * a row of chips, the new one highlighted and the service's ones marked with a dot and a legend;
 * the hours bank; a neutral note on a leave today.
 */
import type { PunchDayView } from '../../../src/contract.js';
import { h } from '../dom.js';
import { dayView } from '../day-view.js';
import type { Lang } from '../i18n.js';

export function dayBlock(day: PunchDayView, lang: Lang, timeZone: string | undefined): HTMLElement {
  const v = dayView(day, lang, timeZone);
  const chips = v.chips.map((c, i) => {
    const chip = h(
      'li',
      {
        class: 'day-chip',
        testid: 'day-chip',
        data: { direction: c.direction, new: String(c.isNew), service: String(c.fromService) },
        attrs: { 'aria-label': c.label },
      },
      [
        c.fromService ? h('span', { class: 'day-dot', attrs: { 'aria-hidden': 'true' } }) : null,
        h('span', { class: 'day-chip-time', text: c.time }),
        h('span', { class: 'day-chip-mark', text: c.mark }),
      ],
    );
    if (c.isNew) chip.setAttribute('aria-current', 'true');
    return i === 0 ? [chip] : [h('li', { class: 'day-sep', text: '·', attrs: { 'aria-hidden': 'true' } }), chip];
  });
  return h('div', { class: 'day', testid: 'day', data: { direction: v.direction } }, [
    v.chips.length > 0
      ? h('ul', { class: 'day-chips', testid: 'day-chips', attrs: { 'aria-label': v.punchesLabel } }, chips.flat())
      : null,
    v.legend
      ? h('div', { class: 'day-legend', testid: 'day-legend' }, [
          h('span', { class: 'day-dot', attrs: { 'aria-hidden': 'true' } }),
          h('span', { text: v.legend }),
        ])
      : null,
    v.bank ? h('div', { class: 'day-bank', testid: 'day-bank', text: v.bank }) : null,
    // In a span of its own: the note is clamped inside the box's padding (95-long-text.css).
    v.leave
      ? h('div', { class: 'day-leave', testid: 'day-leave', attrs: { role: 'note' } }, [
          h('span', { class: 'day-leave-text', text: v.leave }),
        ])
      : null,
  ]);
}
