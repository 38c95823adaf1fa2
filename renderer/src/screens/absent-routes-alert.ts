/**
 * The read routes the service does not have, on the admin connection tab: for each, since when,
 * what the terminal does without it, and when it asks again (words: src/messages/route-text.ts).
 * Hidden while the service has every route the terminal uses.
 */
import { absentRouteWords } from '../../../src/messages/route-text.js';
import { fill, h, setData } from '../dom.js';
import { formatDateTime } from '../format.js';
import { t } from '../i18n.js';
import type { Alert } from './admin-alerts.js';

/** `absent-routes`: a heading and one `absent-route` item (data-route) per route. */
export function absentRoutesAlert(): Alert {
  const el = h('section', { class: 'alert-box absent-routes', testid: 'absent-routes', attrs: { hidden: '' } });
  let shown = '';
  return {
    el,
    update(c) {
      const routes = c.status?.absentRoutes ?? [];
      el.hidden = routes.length === 0;
      setData(el, 'count', String(routes.length));
      const now = c.status?.now ?? c.now;
      const time = (ms: number): string => formatDateTime(ms, c.lang, c.timeZone);
      const items = routes.map((a) => ({ route: a.route, w: absentRouteWords(c.lang, a, now, time) }));
      const key = JSON.stringify([c.lang, items]);
      if (key === shown) return;
      shown = key;
      fill(
        el,
        routes.length === 0
          ? []
          : [
              h('h2', { class: 'alert-title', text: t(c.lang, 'route.title') }),
              h(
                'ul',
                { class: 'warning-list' },
                items.map(({ route, w }) =>
                  h('li', {
                    testid: 'absent-route',
                    data: { route },
                    text: `${w.absent}${w.lacks ? `: ${w.lacks}` : ''} — ${w.next}`,
                  }),
                ),
              ),
            ],
      );
    },
  };
}
