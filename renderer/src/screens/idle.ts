/**
 * The screen an employee walks up to: clock, date, site, prompt, connection state. With a set-up
 * problem the connection line is the `setup-problem` line (`data-location`: where a redirect
 * points, '' when unknown or not a redirect; `data-kind`: redirect | not_api), on up to three lines.
 */
import { connectionOf } from '../connection.js';
import { connectionText, IDLE_LOCATION_CHARS, setupProblemView } from '../connection-view.js';
import { button, h, setData, setText } from '../dom.js';
import { formatClock, formatLongDate } from '../format.js';
import { t } from '../i18n.js';
import { nextLang } from '../language.js';
import { noRosterNotice } from '../roster-view.js';
import type { Ctx, View } from './view.js';

export function idleView(ctx: Ctx): View {
  const { lang } = ctx;
  const site = h('div', { class: 'site-name', testid: 'site-name' });
  const lang_ = button(t(lang, 'idle.language'), () => ctx.toggleLanguage(), {
    class: 'lang-toggle',
    testid: 'language',
    attrs: { lang: nextLang(lang) },
  });
  const clock = h('div', { class: 'clock', testid: 'clock' });
  const date = h('div', { class: 'date', testid: 'date' });
  // No complete employee list yet: said plainly, so nobody walks away thinking the punch was lost.
  const noRoster = h('div', { class: 'no-roster', testid: 'no-roster', attrs: { role: 'status', hidden: '' } });
  // The screen's heading (an h1 per screen, issue 29): what to do here.
  const prompt = h('h1', { class: 'prompt', text: t(lang, 'idle.prompt') });
  // Issue 31: with photos on, everyone is told before they punch (the employer's privacy notice says the rest).
  const photoNotice = h('div', { class: 'photo-notice', testid: 'photo-notice', attrs: { role: 'note', hidden: '' } });
  const open = button(t(lang, 'idle.typeId'), () => ctx.dispatch({ type: 'openKeypad' }), {
    class: 'big-button',
    testid: 'open-keypad',
  });
  const dot = h('span', { class: 'conn-dot', attrs: { 'aria-hidden': 'true' } });
  const connText = h('span', { class: 'conn-text' });
  const setupText = h('span', { class: 'conn-text setup-line', testid: 'setup-problem', attrs: { hidden: '' } });
  const conn = h('div', { class: 'connection', testid: 'connection', attrs: { role: 'status' } }, [
    dot,
    connText,
    setupText,
  ]);
  const admin = ctx.settings?.adminEnabled
    ? button(t(lang, 'idle.admin'), () => ctx.dispatch({ type: 'openAdmin' }), {
        class: 'small-button',
        testid: 'open-admin',
      })
    : null;

  const el = h('section', { class: 'screen idle' }, [
    h('header', { class: 'idle-top' }, [site, lang_]),
    h('div', { class: 'idle-center' }, [clock, date, noRoster, prompt, open, photoNotice]),
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
      const sp = state === 'setup' ? (c.status?.setupProblem ?? null) : null;
      connText.hidden = sp !== null;
      setupText.hidden = sp === null;
      if (sp === null) setText(connText, connectionText(c.status, c.lang));
      else {
        const v = setupProblemView(sp, c.lang, c.timeZone, { maxLocation: IDLE_LOCATION_CHARS });
        setText(setupText, v.line);
        setData(setupText, 'location', v.location ?? '');
        setData(setupText, 'kind', v.kind);
      }
      const notice = noRosterNotice(c.status, c.lang);
      noRoster.hidden = notice === null;
      setText(noRoster, notice ?? '');
      const photo = c.settings?.photo;
      photoNotice.hidden = photo === undefined;
      setText(photoNotice, photo ? t(c.lang, 'photo.idleNotice', { days: photo.keepDays }) : '');
      setData(el, 'roster', c.status === null ? 'unknown' : notice === null ? 'complete' : 'incomplete');
    },
  };
}
