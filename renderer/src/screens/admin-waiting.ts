/**
 * The queue tab's list of punches not yet delivered (pending, sending, in doubt, held), oldest
 * first: who, when, state, attempts, NSR, and the last error worded in the screen's language with
 * the service's own words beneath. Reloaded on open, on refresh and when the queue's counts change.
 */
import type { CallOutput } from '../../../src/contract.js';
import { coalescedLoad } from '../coalesced-load.js';
import { button, fill, h } from '../dom.js';
import { formatShortLocalDate } from '../format.js';
import { attemptsText } from '../held-view.js';
import { t, type Lang } from '../i18n.js';
import { serviceErrorText } from '../service-error.js';
import type { Shared } from './admin-common.js';
import type { Ctx } from './view.js';

type Waiting = CallOutput<'listWaiting'>;
const HELD_REASONS: readonly string[] = [
  'not_allowed',
  'forbidden',
  'unverified',
  'pin_unverified',
  'disputed',
  'clock_unverified',
];

/**
 * A service error as two lines: the sentence in `lang` (when the cause is a common one), the raw text beneath, smaller
 * and muted.
 */
/**
 * An employee as a list row names them: the name, shortened to one line with an ellipsis (styles
 * 95-long-text.css; the whole of it in the page and its title), and the external id beside it, kept
 * in sight: the id is what a manager searches by.
 */
export function employeeLabel(name: string, externalId: string | null): HTMLElement {
  return h('span', { class: 'wr-name', attrs: { title: name } }, [
    h('span', { class: 'wr-name-text', text: name }),
    externalId ? h('span', { class: 'wr-id', text: ` (${externalId})` }) : null,
  ]);
}

export function serviceErrorLines(raw: string, lang: Lang, testid = 'service-error'): HTMLElement {
  const said = serviceErrorText(raw, lang);
  return h('div', { class: 'service-error', testid }, [
    said ? h('div', { class: 'service-error-said', text: said }) : null,
    h('div', { class: said ? 'service-error-raw muted' : 'service-error-said', text: raw, testid: `${testid}-raw` }),
  ]);
}

export function waitingSection(ctx: Ctx, sh: Shared): { el: HTMLElement; load(): Promise<void>; update(c: Ctx): void } {
  const lang = ctx.lang;
  const list = h('div', { class: 'waiting-list', testid: 'waiting-list' });
  const summary = h('p', { class: 'muted', testid: 'waiting-summary', attrs: { hidden: '' } });
  const refresh = button(t(lang, 'queue.refresh'), () => void load(), {
    class: 'small-button',
    testid: 'waiting-refresh',
  });
  let lastKey: string | null = null;

  const render = (w: Waiting): void => {
    summary.hidden = w.total <= w.punches.length;
    summary.textContent = summary.hidden ? '' : t(lang, 'waiting.shown', { shown: w.punches.length, total: w.total });
    if (w.punches.length === 0)
      return fill(list, [h('p', { class: 'muted', testid: 'waiting-none', text: t(lang, 'waiting.none') })]);
    fill(
      list,
      w.punches.map((p) =>
        h('div', { class: 'waiting-row', testid: 'waiting-row', data: { punchId: String(p.id), state: p.state } }, [
          h('div', { class: 'wr-head' }, [
            employeeLabel(p.employeeName, p.externalId),
            h('span', { class: 'wr-when', text: `${formatShortLocalDate(p.localDate, lang)} ${p.localTime}` }),
            h('span', { class: 'wr-state', testid: 'waiting-state', text: t(lang, `queue.${p.state}`) }),
          ]),
          h('div', { class: 'wr-facts muted' }, [
            attemptsText(p.attempts, lang),
            p.nsr === null ? null : ` · ${t(lang, 'waiting.nsr', { nsr: String(p.nsr).padStart(9, '0') })}`,
            p.heldReason
              ? ` · ${t(lang, `held.reason.${HELD_REASONS.includes(p.heldReason) ? (p.heldReason as 'not_allowed') : 'unknown'}`)}`
              : null,
          ]),
          p.lastError ? serviceErrorLines(p.lastError, lang, 'waiting-error') : null,
        ]),
      ),
    );
  };

  const load = coalescedLoad(async () => {
    const r = await sh.calls('listWaiting', {});
    if (!sh.alive() || sh.failed(r)) return;
    render(r.value);
  });

  const el = h('section', { class: 'waiting-section' }, [
    h('div', { class: 'list-head' }, [
      h('h2', { text: t(lang, 'waiting.title') }),
      h('div', { class: 'list-buttons' }, [refresh]),
    ]),
    summary,
    list,
  ]);
  return {
    el,
    load,
    update(c) {
      const q = c.status?.queue;
      if (!q) return;
      const key = `${q.pending}/${q.sending}/${q.in_doubt}/${q.held}/${q.sent}`;
      if (lastKey !== null && key !== lastKey) void load();
      lastKey = key;
    },
  };
}
