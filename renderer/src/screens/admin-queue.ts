/**
 * The admin screen's queue tab: a set-up problem when there is one, counts by state, delivery
 * facts, the rejected punches to retry (one by one or all at once), and the held punches
 * (admin-held.ts).
 */
import type { z } from 'zod';
import type { rejectedPunchSchema } from '../../../src/contract.js';
import { coalescedLoad } from '../coalesced-load.js';
import { button, fill, h, setData, setText } from '../dom.js';
import { formatDateTime, formatDuration, formatShortLocalDate } from '../format.js';
import { answerText, t } from '../i18n.js';
import { setupProblemAlert, storageAlert } from './admin-alerts.js';
import { present, row, type Panel, type Shared } from './admin-common.js';
import { heldSection } from './admin-held.js';
import { serviceErrorLines, waitingSection } from './admin-waiting.js';
import { attemptsText } from '../held-view.js';
import type { Ctx } from './view.js';

type Rejected = z.infer<typeof rejectedPunchSchema>;

/** The states counted in tiles, in the order they are shown. */
export const QUEUE_STATES = ['pending', 'sending', 'in_doubt', 'sent', 'rejected', 'held'] as const;

export function queuePanel(ctx: Ctx, sh: Shared): Panel {
  const lang = ctx.lang;
  const states = QUEUE_STATES;
  const counts = {} as Record<(typeof states)[number], HTMLElement>;
  for (const s of states) counts[s] = h('div', { class: 'count-value', testid: `queue-${s}`, text: '0' });
  const tiles = h(
    'div',
    { class: 'count-tiles' },
    states.map((s) =>
      h('div', { class: 'count-tile', data: { state: s } }, [
        counts[s],
        h('div', { class: 'count-label', text: t(lang, `queue.${s}`) }),
      ]),
    ),
  );
  const heldNote = h('p', { class: 'warn held-note', testid: 'queue-held-note', attrs: { hidden: '' } });
  const facts = h('dl', { class: 'facts' });
  const list = h('div', { class: 'rejected-list' });
  const refresh = button(t(lang, 'queue.refresh'), () => void Promise.all([load(), held.load(), waiting.load()]), {
    class: 'small-button',
    testid: 'rejected-refresh',
  });
  // Shown only while there are rejected punches to retry.
  const retryAll = button(t(lang, 'queue.retryAll'), () => void retryEvery(), {
    class: 'small-button',
    testid: 'retry-all',
    attrs: { hidden: '' },
  });
  const setup = setupProblemAlert();
  const storage = storageAlert();
  const held = heldSection(ctx, sh);
  const waiting = waitingSection(ctx, sh);
  let lastRejectedCount: number | null = null;

  const renderRows = (rows: Rejected[]): void => {
    retryAll.hidden = rows.length === 0;
    if (rows.length === 0) return fill(list, [h('p', { class: 'muted', text: t(lang, 'queue.noRejected') })]);
    fill(
      list,
      rows.map((r) => {
        const retry = button(t(lang, 'queue.retry'), () => void retryOne(r.id, retry), {
          class: 'row-button',
          testid: 'retry',
        });
        return h('div', { class: 'rejected-row', testid: 'rejected-row', data: { punchId: String(r.id) } }, [
          h('div', { class: 'rr-main' }, [
            h('div', { class: 'rr-name', text: r.employee_name }),
            h('div', { class: 'rr-when', text: `${formatShortLocalDate(r.local_date, lang)} ${r.local_time}` }),
            h('div', { class: 'rr-reason', text: r.reject_reason ?? r.last_error ?? '' }),
            h('div', { class: 'rr-attempts muted', text: attemptsText(r.attempts, lang) }),
          ]),
          retry,
        ]);
      }),
    );
  };

  const load = coalescedLoad(async () => {
    const r = await sh.calls('listRejected', {});
    if (!sh.alive() || sh.failed(r)) return;
    renderRows(r.value);
  });

  const retryOne = async (punchId: number, b: HTMLButtonElement): Promise<void> => {
    b.disabled = true;
    const r = await sh.calls('retryRejected', { punchId });
    if (!sh.alive()) return;
    b.disabled = false;
    if (sh.failed(r)) return;
    sh.notice(answerText(lang, r.value), r.value.ok ? 'ok' : 'error');
    await load();
  };

  const retryEvery = async (): Promise<void> => {
    retryAll.disabled = true;
    const r = await sh.calls('retryAllRejected', {});
    if (!sh.alive()) return;
    retryAll.disabled = false;
    if (sh.failed(r)) return;
    // None queued (the list changed meanwhile) is news, not a failure.
    sh.notice(answerText(lang, r.value), r.value.ok ? 'ok' : r.value.code === 'retry_all_queued' ? 'info' : 'error');
    await load();
  };

  const el = h('div', { class: 'panel-body queue-panel' }, [
    storage.el,
    setup.el,
    tiles,
    heldNote,
    facts,
    waiting.el,
    h('div', { class: 'list-head' }, [
      h('h2', { text: t(lang, 'queue.rejectedList') }),
      h('div', { class: 'list-buttons' }, [retryAll, refresh]),
    ]),
    list,
    held.el,
  ]);
  void load();
  void held.load();
  void waiting.load();

  return {
    el,
    update(c) {
      const s = c.status;
      setup.update(c);
      storage.update(c);
      held.update(c);
      waiting.update(c);
      if (!s) return;
      for (const st of states) {
        setText(counts[st], String(s.queue[st]));
        setData(counts[st], 'nonzero', String(s.queue[st] > 0));
      }
      heldNote.hidden = s.queue.held === 0;
      setText(heldNote, s.queue.held === 0 ? '' : t(c.lang, 'queue.heldNote'));
      const when = (at: number): string => formatDateTime(at, c.lang, c.timeZone);
      const paused = s.sendingPaused
        ? `${t(c.lang, 'common.yes')}: ${t(c.lang, s.sendingPaused.reason === 'auth' ? 'queue.pausedAuth' : 'queue.pausedRetryAfter', { time: when(s.sendingPaused.until) })}`
        : s.setupProblem
          ? `${t(c.lang, 'common.yes')}: ${t(c.lang, 'queue.pausedSetup')}`
          : t(c.lang, 'queue.notPaused');
      fill(
        facts,
        present([
          row(
            t(c.lang, 'queue.oldest'),
            s.oldestUnsentAgeMs === null ? t(c.lang, 'queue.none') : formatDuration(s.oldestUnsentAgeMs, c.lang),
            'queue-oldest',
          ),
          row(
            t(c.lang, 'queue.lastError'),
            s.lastError
              ? h('div', {}, [when(s.lastError.at), serviceErrorLines(s.lastError.message, c.lang, 'queue-error')])
              : t(c.lang, 'common.dash'),
            'queue-last-error',
          ),
          row(t(c.lang, 'queue.paused'), paused, 'queue-paused'),
          s.authRefused
            ? row(
                t(c.lang, 'queue.authRefused'),
                `${when(s.authRefused.at)} — ${s.authRefused.reason}`,
                'queue-auth-refused',
              )
            : null,
        ]),
      );
      for (const dd of facts.querySelectorAll('[data-testid="queue-paused"], [data-testid="queue-auth-refused"]'))
        if (s.sendingPaused || s.authRefused || s.setupProblem) dd.classList.add('warn');
      if (lastRejectedCount !== null && lastRejectedCount !== s.queue.rejected) void load();
      lastRejectedCount = s.queue.rejected;
    },
  };
}
