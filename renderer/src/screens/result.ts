/**
 * A punch's outcome, readable at a metre: colour, name, time, one line of advice; the worker's receipt beside it when
 * there is one.
 */
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { dayOfResult, dayView } from '../day-view.js';
import { resultView } from '../result-view.js';
import { announce, announcementText, speak, speechText } from '../speech.js';
import { dayBlock } from './day-block.js';
import { receiptCard } from './receipt-card.js';
import type { Ctx, View } from './view.js';

const ICON = { ok: '✓', repeat: '✓', info: 'i', error: '✕' } as const;

/**
 * The receipt card's height (the screen is 60 units high, less its padding) and its QR code's side at most, in screen
 * units.
 */
const RECEIPT_HEIGHT_UNITS = 56;
const RESULT_QR_UNITS = 32;

export function resultScreen(ctx: Ctx): View {
  const s = ctx.model.screen;
  const el = h('section', { class: 'screen result' });
  if (s.name === 'result') {
    const v = resultView(s.shown, ctx.lang);
    const r = s.shown.result;
    const receipt =
      r?.ok && r.receipt
        ? receiptCard(r.receipt, ctx.lang, {
            layout: 'stacked',
            maxQrUnits: RESULT_QR_UNITS,
            heightUnits: RECEIPT_HEIGHT_UNITS,
          })
        : null;
    el.dataset.tone = v.tone;
    const day = dayOfResult(r);
    const dv = day ? dayView(day, ctx.lang, ctx.timeZone) : null;
    announce(announcementText(v, [dv?.bank ?? null, dv?.leave ?? null]));
    if (ctx.settings?.speech) speak(speechText(v, ctx.lang), ctx.lang);
    const main = h('div', { class: 'result-main' }, [
      h('div', { class: 'result-icon', text: ICON[v.tone], attrs: { 'aria-hidden': 'true' } }),
      h('h1', { class: 'result-headline', text: v.headline }),
      h('div', { class: 'result-name', testid: 'result-name', text: v.name }),
      h('div', { class: 'result-when' }, [
        h('span', { class: 'result-time', testid: 'result-time', text: v.time }),
        h('span', { class: 'result-date', text: v.date }),
        v.timeNote ? h('span', { class: 'result-time-note', testid: 'result-time-note', text: v.timeNote }) : null,
      ]),
      h('div', { class: 'result-message', testid: 'result-message', text: v.message }),
      day ? dayBlock(day, ctx.lang, ctx.timeZone) : null,
      h('div', { class: 'result-hint', text: t(ctx.lang, 'result.tapToClose') }),
    ]);
    const data = {
      ok: String(v.ok),
      reason: v.reason,
      queued: String(v.queued),
      tone: v.tone,
      note: v.note,
      receipt: String(receipt !== null),
      direction: day?.direction ?? 'none',
    };
    el.append(h('div', { class: 'result-box', testid: 'result', data }, [main, receipt]));
  }
  el.addEventListener('click', () => ctx.dispatch({ type: 'dismiss' }));
  return { el, update() {} };
}
