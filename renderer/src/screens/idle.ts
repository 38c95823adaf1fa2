/** The screen an employee walks up to: clock, date, site, prompt, connection state. */
import { connectionOf } from '../connection.js';
import { button, h, setData, setText } from '../dom.js';
import { formatClock, formatLongDate } from '../format.js';
import { t, type Lang } from '../i18n.js';
import { noRosterNotice } from '../roster-view.js';
import type { StatusView } from '../../../src/contract.js';
import type { Ctx, View } from './view.js';

export function connectionText(status: StatusView | null, lang: Lang): string {
  const { state, waiting } = connectionOf(status);
  switch (state) {
    case 'online':
      return waiting > 0 ? t(lang, 'conn.onlineSending', { n: waiting }) : t(lang, 'conn.online');
    case 'offline':
      return waiting > 0 ? t(lang, 'conn.offline', { n: waiting }) : t(lang, 'conn.offlineNone');
    case 'paused':
      return t(lang, 'conn.paused', { n: waiting });
    case 'unknown':
      return t(lang, 'conn.unknown');
  }
}

export function idleView(ctx: Ctx): View {
  const { lang } = ctx;
  const site = h('div', { class: 'site-name', testid: 'site-name' });
  const lang_ = button(t(lang, 'idle.language'), () => ctx.toggleLanguage(), { class: 'lang-toggle', testid: 'language', attrs: { lang: lang === 'en' ? 'pt-BR' : 'en' } });
  const clock = h('div', { class: 'clock', testid: 'clock' });
  const date = h('div', { class: 'date', testid: 'date' });
  // No complete employee list yet: said plainly, so nobody walks away thinking the punch was lost.
  const noRoster = h('div', { class: 'no-roster', testid: 'no-roster', attrs: { role: 'status', hidden: '' } });
  const prompt = h('div', { class: 'prompt', text: t(lang, 'idle.prompt') });
  const open = button(t(lang, 'idle.typeId'), () => ctx.dispatch({ type: 'openKeypad' }), { class: 'big-button', testid: 'open-keypad' });
  const dot = h('span', { class: 'conn-dot', attrs: { 'aria-hidden': 'true' } });
  const connText = h('span', { class: 'conn-text' });
  const conn = h('div', { class: 'connection', testid: 'connection', attrs: { role: 'status' } }, [dot, connText]);
  const admin = ctx.settings?.adminEnabled ? button(t(lang, 'idle.admin'), () => ctx.dispatch({ type: 'openAdmin' }), { class: 'small-button', testid: 'open-admin' }) : null;

  const el = h('section', { class: 'screen idle' }, [
    h('header', { class: 'idle-top' }, [site, lang_]),
    h('div', { class: 'idle-center' }, [clock, date, noRoster, prompt, open]),
    h('footer', { class: 'idle-bottom' }, [conn, admin]),
  ]);

  return {
    el,
    update(c) {
      setText(site, c.status?.site?.name ?? t(c.lang, 'idle.noSite'));
      setText(clock, formatClock(c.now, c.lang, c.timeZone));
      setText(date, formatLongDate(c.now, c.lang, c.timeZone));
      const { state, waiting } = connectionOf(c.status);
      setData(conn, 'state', state);
      setData(conn, 'waiting', String(waiting));
      setText(connText, connectionText(c.status, c.lang));
      const notice = noRosterNotice(c.status, c.lang);
      noRoster.hidden = notice === null;
      setText(noRoster, notice ?? '');
      setData(el, 'roster', c.status === null ? 'unknown' : notice === null ? 'complete' : 'incomplete');
    },
  };
}
