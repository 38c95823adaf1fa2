/**
 * The admin screen's "Presentes" tab (issue 30): who is on site now, by employer and entry gate,
 * how long since entry, where the facts come from; and the evacuation roll call, one touch away,
 * shown large for the warden with its counts always in sight. Behind the admin PIN only. Redrawn
 * on every status event (the agent sends one when the board changes at any terminal of the site).
 */
import type { PresenceBoardView, RollCallView } from '../../../src/contract.js';
import { button, fill, h, setData } from '../dom.js';
import { formatDuration } from '../format.js';
import { t } from '../i18n.js';
import { clockText as clock, presenceSourceLines } from '../presence-sources.js';
import type { Panel, Shared } from './admin-common.js';
import type { Ctx } from './view.js';

/** Rows drawn at most (the counts are always whole; the CSV and `timeclock presence` have everyone). */
const ROWS_MAX = 400;
/** At most one refresh in this long, however many status events arrive. */
const REFRESH_MS = 400;

export function presencePanel(ctx: Ctx, sh: Shared): Panel {
  const lang = sh.lang;
  let timeZone = ctx.timeZone;
  const el = h('div', { class: 'panel-body presence-panel', testid: 'presence-panel' });
  let board: PresenceBoardView | null = null;
  let roll: RollCallView | null = null;
  let showRoll = false;
  let asking = false;
  let again = false;
  let lastAt = 0;

  const refresh = async (): Promise<void> => {
    if (asking) {
      again = true;
      return;
    }
    asking = true;
    lastAt = Date.now();
    const [b, r] = await Promise.all([sh.calls('presenceBoard', {}), sh.calls('rollCall', {})]);
    asking = false;
    if (!sh.alive() || !el.isConnected) return;
    if (!sh.failed(b)) board = b.value;
    if (r !== null && r.ok) {
      roll = r.value;
      if (roll?.active) showRoll = true;
    }
    draw();
    if (again) {
      again = false;
      void refresh();
    }
  };

  const sourcesLines = (b: PresenceBoardView): HTMLElement => {
    const s = b.sources;
    const lines = presenceSourceLines(b, lang, timeZone);
    const p = h(
      'p',
      { class: 'presence-sources', testid: 'presence-sources' },
      lines.map((l) => h('span', { text: l })),
    );
    setData(p, 'state', s.stream.state);
    return p;
  };

  const personRow = (p: PresenceBoardView['onSite'][number]): HTMLElement =>
    h('li', { class: 'presence-person' }, [
      h('span', { class: 'presence-name', text: p.name ?? p.employee_external_id ?? p.employeeKey }),
      h('span', {
        class: 'presence-meta',
        text: `${p.employer ?? t(lang, 'presence.unknownEmployer')} · ${t(lang, 'presence.enteredAt', { time: p.entryTime, gate: p.gate })}`,
      }),
      h('span', {
        class: 'presence-inside',
        text: t(lang, 'presence.inside', { time: formatDuration(p.minutesInside * 60_000, lang) }),
      }),
    ]);

  const groups = (title: string, list: PresenceBoardView['byGate'], testid: string): HTMLElement =>
    h('div', { class: 'presence-groups', testid }, [
      h('h3', { text: title }),
      h(
        'ul',
        {},
        list.map((g) => h('li', { text: `${g.name || t(lang, 'presence.unknownEmployer')}: ${g.count}` })),
      ),
    ]);

  const drawBoard = (b: PresenceBoardView): void => {
    const start = button(t(lang, 'rollcall.start'), () => void startRoll(), {
      class: 'action-button rollcall-start',
      testid: 'rollcall-start',
    });
    fill(el, [
      h('div', { class: 'presence-head' }, [
        h('h2', {
          class: 'presence-count',
          testid: 'presence-count',
          text: t(lang, 'presence.count', { n: b.counts.onSite }),
        }),
        start,
      ]),
      sourcesLines(b),
      h('div', { class: 'presence-group-row' }, [
        groups(t(lang, 'presence.byEmployer'), b.byEmployer, 'presence-by-employer'),
        groups(t(lang, 'presence.byGate'), b.byGate, 'presence-by-gate'),
      ]),
      b.onSite.length === 0
        ? h('p', { class: 'muted', text: t(lang, 'presence.nobody') })
        : h('ul', { class: 'presence-list', testid: 'presence-list' }, b.onSite.slice(0, ROWS_MAX).map(personRow)),
      b.forgotExit.length === 0
        ? null
        : h('section', { class: 'presence-forgot', testid: 'presence-forgot' }, [
            h('h3', { text: `${t(lang, 'presence.forgot')}: ${b.forgotExit.length}` }),
            h('ul', { class: 'presence-list' }, b.forgotExit.slice(0, ROWS_MAX).map(personRow)),
          ]),
    ]);
  };

  const drawRoll = (r: RollCallView): void => {
    const counts = h('div', {
      class: 'rollcall-counts',
      testid: 'rollcall-counts',
      text: t(lang, 'rollcall.counts', r.counts),
    });
    setData(counts, 'missing', String(r.counts.missing));
    const rows = r.people.slice(0, ROWS_MAX).map((p) =>
      h('li', { class: p.safe ? 'rollcall-person safe' : 'rollcall-person missing' }, [
        h('span', { class: 'presence-name', text: p.name ?? p.employee_external_id ?? p.employeeKey }),
        h('span', {
          class: 'presence-meta',
          text: `${p.employee_external_id ?? ''} · ${p.employer ?? ''} · ${p.gate}`,
        }),
        p.safe || !r.active
          ? h('span', {
              class: 'rollcall-safe',
              text: p.safe
                ? `${t(lang, 'rollcall.safe')} ${p.markedAt === null ? '' : clock(p.markedAt, lang, timeZone)}`
                : '',
            })
          : button(t(lang, 'rollcall.markSafe'), () => void mark(p.employeeKey), {
              class: 'action-button rollcall-mark',
              testid: `rollcall-mark-${p.employeeKey}`,
            }),
      ]),
    );
    fill(el, [
      h('div', { class: 'rollcall-head' }, [
        h('h2', { text: t(lang, 'rollcall.title') }),
        r.active
          ? button(t(lang, 'rollcall.end'), () => void endRoll(), {
              class: 'action-button rollcall-end',
              testid: 'rollcall-end',
            })
          : button(t(lang, 'rollcall.back'), () => ((showRoll = false), draw()), {
              class: 'action-button',
              testid: 'rollcall-back',
            }),
      ]),
      counts,
      r.cutOff
        ? h('p', { class: 'rollcall-cut-off', testid: 'rollcall-cut-off', text: t(lang, 'rollcall.cutOff') })
        : null,
      h('p', { class: 'muted', text: r.active ? t(lang, 'rollcall.badgeHint') : t(lang, 'rollcall.ended') }),
      h('ul', { class: 'rollcall-list', testid: 'rollcall-list' }, rows),
    ]);
  };

  const draw = (): void => {
    if (showRoll && roll) drawRoll(roll);
    else if (board) drawBoard(board);
  };

  const startRoll = async (): Promise<void> => {
    const r = await sh.calls('rollCallStart', {});
    if (!sh.alive() || sh.failed(r)) return;
    roll = r.value;
    showRoll = true;
    draw();
  };
  const mark = async (employeeKey: string): Promise<void> => {
    const r = await sh.calls('rollCallMark', { employeeKey });
    if (!sh.alive() || sh.failed(r)) return;
    await refresh();
  };
  const endRoll = async (): Promise<void> => {
    const r = await sh.calls('rollCallEnd', {});
    if (!sh.alive() || sh.failed(r)) return;
    roll = r.value;
    sh.notice(t(lang, 'rollcall.ended'), 'ok');
    draw();
  };

  void refresh();
  return {
    el,
    update(c) {
      timeZone = c.timeZone;
      // A status event: the board may have changed at any terminal of the site.
      if (Date.now() - lastAt >= REFRESH_MS) void refresh();
    },
  };
}
