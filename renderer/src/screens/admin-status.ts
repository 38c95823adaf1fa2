/**
 * The admin screen's read-only tabs: the badge readers, and the connection to the service (with a
 * set-up problem and the configuration warnings above its facts, when there are any).
 */
import { fill, h, setText } from '../dom.js';
import { clockWarning, serviceClockWarning } from '../connection-view.js';
import { formatDateTime, formatDuration, formatSkew } from '../format.js';
import { t } from '../i18n.js';
import { setupProblemAlert, warningsAlert } from './admin-alerts.js';
import { absentRoutesAlert } from './absent-routes-alert.js';
import { present, row, type Panel } from './admin-common.js';
import { serviceErrorLines } from './admin-waiting.js';
import { conflictView, terminalText, windowView } from '../fleet-view.js';
import { cameraCard } from './camera-card.js';

export function readersPanel(): Panel {
  const el = h('div', { class: 'panel-body readers-panel' });
  return {
    el,
    update(c) {
      const s = c.status;
      if (!s) return;
      const camera = cameraCard(s, c.lang);
      if (s.readers.length === 0)
        return fill(el, [camera, h('p', { class: 'muted', text: t(c.lang, 'readers.none') })]);
      const when = (at: number | null): string =>
        at === null ? t(c.lang, 'common.dash') : formatDateTime(at, c.lang, c.timeZone);
      fill(el, [
        camera,
        ...s.readers.map((r) =>
          h('div', { class: 'reader-card', testid: 'reader', data: { connected: String(r.connected) } }, [
            h('div', { class: 'reader-head' }, [
              h('span', { class: 'reader-name', text: r.name }),
              h('span', {
                class: 'reader-state',
                text: t(c.lang, r.connected ? 'readers.connected' : 'readers.disconnected'),
              }),
            ]),
            h(
              'dl',
              { class: 'facts' },
              present([
                row(t(c.lang, 'readers.device'), r.device ?? t(c.lang, 'common.dash')),
                row(t(c.lang, 'readers.lastScan'), when(r.lastScanAt)),
                row('', t(c.lang, 'readers.counts', { scans: r.scans, errors: r.errors, disconnects: r.disconnects })),
                r.lastError ? row(t(c.lang, 'readers.lastError'), r.lastError) : null,
              ]),
            ),
          ]),
        ),
      ]);
    },
  };
}

export function connectionPanel(): Panel {
  const facts = h('dl', { class: 'facts' });
  const setup = setupProblemAlert();
  const warnings = warningsAlert();
  const absent = absentRoutesAlert();
  const clock = h('div', { class: 'alert-box', testid: 'clock-warning' });
  const conflict = idConflictAlert();
  return {
    el: h('div', { class: 'panel-body connection-panel' }, [
      setup.el,
      clock,
      conflict.el,
      warnings.el,
      absent.el,
      facts,
    ]),
    update(c) {
      const s = c.status;
      setup.update(c);
      absent.update(c);
      // The service's clock (off, no Date…) comes first: then the terminal's own skew means little.
      const said = [serviceClockWarning(s?.serviceClock, c.lang), clockWarning(s?.clockSkewMs ?? null, c.lang)]
        .filter((x): x is string => x !== null)
        .join(' ');
      clock.hidden = said === '';
      setText(clock, said);
      warnings.update(c);
      conflict.update(c);
      if (!s) return;
      const shared = windowView(s, c.lang);
      const ago = (at: number): string => t(c.lang, 'conn.ago', { age: formatDuration(s.now - at, c.lang) });
      // Answering with server errors is not online, and not "no connection" either.
      const state = s.service?.state ?? (s.online === true ? 'online' : s.online === false ? 'offline' : 'unknown');
      const online_ = h('span', {
        class: state === 'online' ? 'good' : state === 'unknown' ? 'muted' : 'bad',
        data: { state },
        text: t(c.lang, `conn.state.${state}`),
      });
      fill(facts, [
        row(t(c.lang, 'conn.title.online'), online_, 'conn-online'),
        row(
          t(c.lang, 'conn.lastContact'),
          s.lastContactAt === null
            ? t(c.lang, 'roster.never')
            : `${formatDateTime(s.lastContactAt, c.lang, c.timeZone)} (${ago(s.lastContactAt)})`,
          'conn-last-contact',
        ),
        row(
          t(c.lang, 'conn.lastAnswered'),
          s.lastAnsweredAt == null
            ? t(c.lang, 'roster.never')
            : `${formatDateTime(s.lastAnsweredAt, c.lang, c.timeZone)} (${ago(s.lastAnsweredAt)})`,
          'conn-last-answered',
        ),
        s.lastError
          ? row(
              t(c.lang, 'conn.lastError'),
              h('div', {}, [
                formatDateTime(s.lastError.at, c.lang, c.timeZone),
                serviceErrorLines(s.lastError.message, c.lang, 'conn-error'),
              ]),
              'conn-last-error',
            )
          : null,
        row(
          t(c.lang, 'conn.rate'),
          t(c.lang, 'conn.rateValue', {
            used: s.rateWindow.used,
            limit: s.rateWindow.limit,
            window: formatDuration(s.rateWindow.windowMs, c.lang),
          }),
          'conn-rate',
        ),
        shared
          ? row(
              t(c.lang, 'fleet.window'),
              h('span', { class: shared.tone, text: shared.text, data: { mode: shared.mode } }),
              'conn-shared-window',
            )
          : null,
        row(t(c.lang, 'conn.terminal'), terminalText(s, c.lang), 'conn-terminal'),
        row(t(c.lang, 'conn.version'), s.version, 'conn-version'),
        row(
          t(c.lang, 'conn.skew'),
          s.clockSkewMs === null ? t(c.lang, 'conn.unknownValue') : formatSkew(s.clockSkewMs, c.lang),
          'conn-skew',
        ),
        row(
          t(c.lang, 'conn.unresolved'),
          s.unresolved.count === 0 || s.unresolved.oldestAt === null
            ? String(s.unresolved.count)
            : t(c.lang, 'conn.unresolvedValue', {
                n: s.unresolved.count,
                age: formatDuration(s.now - s.unresolved.oldestAt, c.lang),
              }),
          'conn-unresolved',
        ),
      ]);
    },
  };
}

/** `id-conflict` (role alert, hidden while there is none): another live terminal announces this terminal's id. */
function idConflictAlert(): Panel {
  const title = h('h2', { class: 'alert-title' });
  const body = h('p', { class: 'alert-body', testid: 'id-conflict-text' });
  const el = h('section', { class: 'alert-box', testid: 'id-conflict', attrs: { hidden: '', role: 'alert' } }, [
    title,
    body,
  ]);
  return {
    el,
    update(c) {
      const v = c.status ? conflictView(c.status, c.lang) : null;
      el.hidden = v === null;
      setText(title, v?.title ?? '');
      setText(body, v?.body ?? '');
    },
  };
}
