/**
 * Alerts more than one admin tab shows: a set-up problem (the service answered from another
 * address, or not as the API) on the queue and connection tabs, and the configuration warnings on
 * the connection and settings tabs. The words come from connection-view.ts.
 */
import { ADMIN_LOCATION_CHARS, setupProblemView, warningsView } from '../connection-view.js';
import { fill, h, setData, setText } from '../dom.js';
import { formatDateTime } from '../format.js';
import { t } from '../i18n.js';
import type { Ctx } from './view.js';

export type Alert = { el: HTMLElement; update(ctx: Ctx): void };

/**
 * `setup-problem` (role alert, hidden while there is none): the line, the service's answer
 * (`setup-problem-reason`) and since when. `data-location`: where a redirect points ('' when the
 * service did not say or it is not a redirect); `data-kind`: redirect | not_api.
 */
export function setupProblemAlert(): Alert {
  const title = h('h2', { class: 'alert-title', testid: 'setup-problem-text' });
  const reason = h('p', { class: 'alert-body setup-reason', testid: 'setup-problem-reason' });
  const since = h('p', { class: 'alert-body muted' });
  const el = h(
    'section',
    { class: 'alert-box setup-alert', testid: 'setup-problem', attrs: { hidden: '', role: 'alert' } },
    [title, reason, since],
  );
  return {
    el,
    update(c) {
      const sp = c.status?.setupProblem ?? null;
      el.hidden = sp === null;
      if (sp === null) return;
      const v = setupProblemView(sp, c.lang, c.timeZone, { maxLocation: ADMIN_LOCATION_CHARS });
      setData(el, 'location', v.location ?? '');
      setData(el, 'kind', v.kind);
      setText(title, v.line);
      setText(reason, v.reason);
      setText(since, v.since);
    },
  };
}

/** `config-warnings` (hidden while there are none): a heading and one `config-warning` item per warning. */
export function warningsAlert(): Alert {
  const el = h('section', { class: 'alert-box config-warnings', testid: 'config-warnings', attrs: { hidden: '' } });
  let shown = '';
  return {
    el,
    update(c) {
      const v = warningsView(c.status?.warnings ?? [], c.lang);
      el.hidden = v === null;
      setData(el, 'count', String(v?.items.length ?? 0));
      const key = v === null ? '' : JSON.stringify([v.title, v.items]);
      if (key === shown) return;
      shown = key;
      fill(
        el,
        v === null
          ? []
          : [
              h('h2', { class: 'alert-title', text: v.title }),
              h(
                'ul',
                { class: 'warning-list' },
                v.items.map((w) => h('li', { testid: 'config-warning', text: w })),
              ),
            ],
      );
    },
  };
}

/**
 * `storage-alert` (role alert, hidden while the disk is fine): punches refused since start because
 * they could not be saved (how many, the last one's time) and free space when it is low. Workers
 * were told "not registered" at the screen; the manager must see it here, not only in the log.
 */
export function storageAlert(): Alert {
  const refused = h('h2', { class: 'alert-title', testid: 'storage-refused' });
  const low = h('p', { class: 'alert-body', testid: 'storage-low' });
  const el = h(
    'section',
    { class: 'alert-box storage-alert', testid: 'storage-alert', attrs: { hidden: '', role: 'alert' } },
    [refused, low],
  );
  return {
    el,
    update(c) {
      const st = c.status?.storage;
      const r = st?.refused ?? null;
      const lowFree = st?.low && st.freeBytes !== null ? st.freeBytes : null;
      el.hidden = r === null && lowFree === null;
      refused.hidden = r === null;
      low.hidden = lowFree === null;
      setText(
        refused,
        r ? t(c.lang, 'storage.refused', { n: r.count, time: formatDateTime(r.lastAt, c.lang, c.timeZone) }) : '',
      );
      setText(low, lowFree === null ? '' : t(c.lang, 'storage.low', { mb: Math.floor(lowFree / 1_000_000) }));
    },
  };
}
