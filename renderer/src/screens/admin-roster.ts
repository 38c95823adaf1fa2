/**
 * The admin screen's roster tab: what needs the manager first (a held smaller list with its
 * confirm button, a site filter the service may ignore, records the last sync could not use),
 * then the list's facts and the sync button, badge enrollment, the punches kept for unknown codes,
 * the employees not allowed to record by API, and incomplete records. The words come from
 * roster-view.ts; this file lays them out and makes the calls.
 */
import { button, fill, h, setData, setText } from '../dom.js';
import { formatDateTime } from '../format.js';
import { answerText, t } from '../i18n.js';
import {
  evidenceGapsView,
  healthView,
  heldShrinkView,
  lastSyncText,
  listState,
  nextSyncText,
  notAllowedView,
  siteFilterView,
  skippedView,
  unresolvedRow,
  type UnresolvedPunch,
} from '../roster-view.js';
import { field, present, row, textInput, type Panel, type Shared } from './admin-common.js';
import { healthNodes, notAllowedNodes, skippedNodes } from './admin-roster-lists.js';
import { coalescedLoad } from '../coalesced-load.js';
import type { Ctx } from './view.js';

/** The unresolved list shows this many rows at most (the count says how many there are). */
const UNRESOLVED_SHOWN = 100;

export function rosterPanel(ctx: Ctx, sh: Shared): Panel {
  const lang = ctx.lang;
  let lastCtx = ctx;

  // ---- alerts: each present only while it applies ----
  const shrinkBody = h('p', { class: 'alert-body', testid: 'held-shrink-body' });
  const shrinkRecheck = h('p', { class: 'alert-body muted', testid: 'held-shrink-recheck' });
  const confirm = button(t(lang, 'roster.shrinkConfirm'), () => void confirmShrink(), {
    class: 'action-button',
    testid: 'confirm-shrink',
  });
  const shrinkBox = h('section', { class: 'alert-box', testid: 'held-shrink', attrs: { hidden: '', role: 'alert' } }, [
    h('h2', { class: 'alert-title', text: t(lang, 'roster.shrinkTitle') }),
    shrinkBody,
    shrinkRecheck,
    h('div', { class: 'alert-actions' }, [confirm]),
  ]);
  const siteWarning = h('p', {
    class: 'alert-box',
    testid: 'site-filter-warning',
    attrs: { hidden: '', role: 'alert' },
  });
  const skipped = h('section', { class: 'alert-box', testid: 'roster-skipped', attrs: { hidden: '' } });

  // ---- facts and sync ----
  const facts = h('dl', { class: 'facts' });
  const progress = h('div', { class: 'sync-progress', testid: 'sync-progress', attrs: { 'aria-live': 'polite' } });
  let syncing = false;
  const sync = button(t(lang, 'roster.syncNow'), () => void runSync(), {
    class: 'action-button',
    testid: 'sync-roster',
  });

  // ---- enrollment ----
  const employee = textInput('enroll-employee', { maxLength: 200 });
  const scanNow = button(t(lang, 'roster.scanNow'), () => void enroll(), {
    class: 'action-button',
    testid: 'enroll-scan',
  });

  // ---- lists ----
  const unresolvedList = h('div', { class: 'unresolved-list', testid: 'unresolved-list' });
  const unresolvedRefresh = button(t(lang, 'queue.refresh'), () => void loadUnresolved(), {
    class: 'small-button',
    testid: 'unresolved-refresh',
  });
  const notAllowed = h('section', { class: 'not-allowed', testid: 'not-allowed', attrs: { hidden: '' } });
  const health = h('div', { class: 'health', testid: 'roster-health' });

  let unresolvedSeen: string | null = null;

  const runSync = async (): Promise<void> => {
    if (syncing) return;
    syncing = true;
    sync.disabled = true;
    draw(lastCtx);
    const r = await sh.calls('syncRoster', {});
    syncing = false;
    if (!sh.alive()) return;
    sync.disabled = false;
    draw(lastCtx);
    if (sh.failed(r)) return;
    if (r.value.ok) sh.notice(t(lang, 'roster.syncDone', { n: r.value.employees }), 'ok');
    else if (r.value.outcome === 'shrink_held') sh.notice(t(lang, 'roster.syncHeldNotice'), 'info');
    else if (r.value.outcome === 'incomplete') sh.notice(t(lang, 'roster.syncIncomplete'), 'info');
    else sh.notice(t(lang, 'admin.failed', { message: r.value.error }), 'error');
  };

  const confirmShrink = async (): Promise<void> => {
    confirm.disabled = true;
    const r = await sh.calls('confirmRosterShrink', {});
    if (!sh.alive()) return;
    confirm.disabled = false;
    if (sh.failed(r)) return;
    const tone = r.value.ok ? 'ok' : r.value.code === 'roster_shrink_none' ? 'info' : 'error';
    sh.notice(answerText(lang, r.value), tone);
    if (r.value.ok) void loadUnresolved();
  };

  const enroll = async (): Promise<void> => {
    const who = employee.value.trim();
    if (who === '') return sh.notice(t(lang, 'roster.needEmployee'), 'error');
    scanNow.disabled = true;
    sh.notice(t(lang, 'roster.waitingScan', { employee: who }), 'info');
    const r = await sh.calls('enrollNextScan', { employee: who });
    if (!sh.alive()) return;
    scanNow.disabled = false;
    if (sh.failed(r)) return;
    sh.notice(answerText(lang, r.value), r.value.ok ? 'ok' : 'error');
    if (r.value.ok) employee.value = '';
  };

  const renderUnresolved = (rows: UnresolvedPunch[]): void => {
    if (rows.length === 0)
      return fill(unresolvedList, [
        h('p', { class: 'muted', testid: 'unresolved-none', text: t(lang, 'roster.unresolvedNone') }),
      ]);
    const shown = rows.slice(0, UNRESOLVED_SHOWN).map((p) => {
      const v = unresolvedRow(p, lang, lastCtx.timeZone);
      return h('div', { class: 'unresolved-row', testid: 'unresolved-row', data: { punchId: String(v.id) } }, [
        h('span', { class: 'ur-when', testid: 'unresolved-when', text: v.when }),
        h('span', { class: 'ur-code', testid: 'unresolved-code', text: v.code }),
        h('span', { class: 'ur-kind muted', text: v.kind }),
        h('span', { class: 'ur-checked muted', text: v.checked }),
      ]);
    });
    const rest = rows.length - shown.length;
    fill(unresolvedList, [
      ...shown,
      rest > 0 ? h('p', { class: 'muted', text: t(lang, 'roster.andMore', { n: rest }) }) : null,
    ]);
  };

  const loadUnresolved = coalescedLoad(async () => {
    const r = await sh.calls('listUnresolved', {});
    if (!sh.alive() || r === null) return;
    // Said in the list itself: the message area keeps the answer the manager is reading.
    if (!r.ok)
      return fill(unresolvedList, [
        h('p', { class: 'bad', text: t(lang, 'admin.failed', { message: r.error.message }) }),
      ]);
    renderUnresolved(r.value);
  });

  const draw = (c: Ctx): void => {
    lastCtx = c;
    const s = c.status;
    if (!s) return;
    const ro = s.roster;
    const when = (at: number): string => formatDateTime(at, c.lang, c.timeZone);

    const shrink = heldShrinkView(ro.heldShrink, c.lang, c.timeZone);
    shrinkBox.hidden = shrink === null;
    setText(shrinkBody, shrink?.body ?? '');
    setText(shrinkRecheck, shrink?.recheck ?? '');
    shrinkRecheck.hidden = !shrink?.recheck;

    const sf = siteFilterView(ro.siteFilter, c.lang);
    siteWarning.hidden = !sf?.warning;
    setText(siteWarning, sf?.warning ?? '');

    const sk = skippedView(ro.skipped, c.lang);
    skipped.hidden = sk === null;
    if (sk) fill(skipped, skippedNodes(sk, ro.skipped?.count ?? 0, c.lang));

    const list = listState(ro, c.lang);
    const last = ro.lastSync ? `${when(ro.lastSync.at)} — ${lastSyncText(ro, c.lang)}` : t(c.lang, 'roster.never');
    fill(
      facts,
      present([
        row(
          t(c.lang, 'roster.list'),
          h('span', { class: list.complete ? 'good' : 'warn', text: list.text }),
          'roster-complete',
        ),
        row(t(c.lang, 'roster.size'), String(ro.size), 'roster-size'),
        row(t(c.lang, 'roster.lastSync'), last, 'roster-last-sync'),
        ro.lastSync && !ro.lastSync.ok && ro.lastSync.lastOkAt !== null
          ? row(t(c.lang, 'roster.lastOk'), when(ro.lastSync.lastOkAt))
          : null,
        row(t(c.lang, 'roster.nextSync'), nextSyncText(ro.nextSyncAt, s.now, c.lang, c.timeZone), 'roster-next-sync'),
        sf
          ? row(
              t(c.lang, 'roster.siteFilter'),
              h('span', {
                class:
                  sf.state === 'suspect'
                    ? 'warn'
                    : sf.state === 'verified' || sf.state === 'one_site'
                      ? 'good'
                      : 'muted',
                text: sf.value,
              }),
              'roster-site-filter',
            )
          : null,
        row(t(c.lang, 'roster.enrolled'), String(ro.enrolledBadges), 'roster-enrolled'),
      ]),
    );
    const complete = facts.querySelector<HTMLElement>('[data-testid="roster-complete"]');
    if (complete) setData(complete, 'complete', String(ro.complete));
    const filter = facts.querySelector<HTMLElement>('[data-testid="roster-site-filter"]');
    if (filter && sf) setData(filter, 'state', sf.state);

    const p = ro.progress;
    setText(
      progress,
      p
        ? p.pagesTotal === null
          ? t(c.lang, 'roster.progressUnknown', { done: p.pagesDone })
          : t(c.lang, 'roster.progress', { done: p.pagesDone, total: p.pagesTotal })
        : syncing
          ? t(c.lang, 'roster.syncing')
          : '',
    );
    setData(progress, 'running', String(p !== null || syncing));
    sync.disabled = syncing || p !== null;

    const na = notAllowedView(ro.notAllowed, c.lang);
    notAllowed.hidden = na === null;
    if (na) fill(notAllowed, notAllowedNodes(na));

    fill(health, healthNodes(healthView(ro.health, c.lang), evidenceGapsView(ro.health, c.lang), ro.health, c.lang));

    // A sync, a confirmed list or a new unknown code changes the unresolved punches: list them again.
    const seen = `${s.unresolved.count}|${s.unresolved.lastCheckedAt ?? ''}|${ro.size}`;
    if (unresolvedSeen !== null && unresolvedSeen !== seen) void loadUnresolved();
    unresolvedSeen = seen;
  };

  const el = h('div', { class: 'panel-body roster-panel' }, [
    shrinkBox,
    siteWarning,
    skipped,
    facts,
    h('div', { class: 'sync-row' }, [sync, progress]),
    h('h2', { text: t(lang, 'roster.enroll') }),
    field(t(lang, 'roster.employee'), employee, scanNow),
    h('div', { class: 'list-head' }, [h('h2', { text: t(lang, 'roster.unresolvedTitle') }), unresolvedRefresh]),
    h('p', { class: 'muted list-help', text: t(lang, 'roster.unresolvedHelp') }),
    unresolvedList,
    notAllowed,
    h('h2', { text: t(lang, 'roster.health') }),
    health,
  ]);
  void loadUnresolved();
  return { el, update: draw };
}
