/** A punch's outcome, readable at a metre: colour, name, time, one line of advice. */
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { resultView } from '../result-view.js';
import type { Ctx, View } from './view.js';

const ICON = { ok: '✓', repeat: '✓', info: 'i', error: '✕' } as const;

export function resultScreen(ctx: Ctx): View {
  const s = ctx.model.screen;
  const el = h('section', { class: 'screen result' });
  if (s.name === 'result') {
    const v = resultView(s.shown, ctx.lang);
    el.dataset.tone = v.tone;
    const box = h('div', { class: 'result-box', testid: 'result', data: { ok: String(v.ok), reason: v.reason, queued: String(v.queued), tone: v.tone, note: v.note } }, [
      h('div', { class: 'result-icon', text: ICON[v.tone], attrs: { 'aria-hidden': 'true' } }),
      h('div', { class: 'result-headline', text: v.headline }),
      h('div', { class: 'result-name', testid: 'result-name', text: v.name }),
      h('div', { class: 'result-when' }, [h('span', { class: 'result-time', testid: 'result-time', text: v.time }), h('span', { class: 'result-date', text: v.date })]),
      h('div', { class: 'result-message', testid: 'result-message', text: v.message }),
      h('div', { class: 'result-hint', text: t(ctx.lang, 'result.tapToClose') }),
    ]);
    el.append(box);
  }
  el.addEventListener('click', () => ctx.dispatch({ type: 'dismiss' }));
  return { el, update() {} };
}
