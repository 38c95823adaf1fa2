/**
 * The manager's screen: five tabs that fit 800×480 (lists scroll inside their panel), one message
 * area, a lock button. Calls go through `AdminCalls`, which turns a `forbidden` answer (session
 * expired) into the admin-login screen and answers null here.
 */
import type { CallInput, CallName, CallResult, StatusView } from '../../../src/contract.js';
import type { z } from 'zod';
import type { rejectedPunchSchema } from '../../../src/contract.js';
import { button, fill, h, setData, setText } from '../dom.js';
import { formatDateTime, formatDuration, formatShortLocalDate, formatSkew } from '../format.js';
import { answerText, t, type Lang, type MessageKey } from '../i18n.js';
import type { Ctx, View } from './view.js';

export type AdminCalls = <N extends CallName>(name: N, input: CallInput<N>) => Promise<CallResult<N> | null>;
export type AdminTab = 'queue' | 'roster' | 'readers' | 'connection' | 'settings';
export const ADMIN_TABS: readonly AdminTab[] = ['queue', 'roster', 'readers', 'connection', 'settings'];
type Rejected = z.infer<typeof rejectedPunchSchema>;
type Tone = 'ok' | 'error' | 'info';

export type AdminView = View & { notice(text: string, tone: Tone): void };

type Panel = { el: HTMLElement; update(ctx: Ctx): void };

type Shared = {
  calls: AdminCalls;
  notice(text: string, tone: Tone): void;
  /** Reports a failed call in the message area; true when the call succeeded. */
  failed<N extends CallName>(r: CallResult<N> | null): r is null | Exclude<CallResult<N>, { ok: true }>;
  alive(): boolean;
  lang: Lang;
};

/** A label and its value, for the admin's key-value lists. */
function row(label: string, value: Node | string, testid?: string): HTMLElement {
  const dd = h('dd', testid ? { testid } : {}, [value]);
  return h('div', { class: 'kv' }, [h('dt', { text: label }), dd]);
}

function field(label: string, input: HTMLInputElement, save: HTMLButtonElement): HTMLElement {
  const id = `f-${Math.random().toString(36).slice(2)}`;
  input.id = id;
  input.autocomplete = 'off';
  input.spellcheck = false;
  return h('div', { class: 'field' }, [h('label', { text: label, attrs: { for: id } }), h('div', { class: 'field-row' }, [input, save])]);
}

function textInput(testid: string, opts: { type?: string; inputmode?: string; maxLength?: number; placeholder?: string } = {}): HTMLInputElement {
  const i = h('input', { testid, class: 'text-input' });
  i.type = opts.type ?? 'text';
  if (opts.inputmode) i.inputMode = opts.inputmode;
  if (opts.maxLength) i.maxLength = opts.maxLength;
  if (opts.placeholder) i.placeholder = opts.placeholder;
  return i;
}

// ---- queue ---------------------------------------------------------------------------------------

function queuePanel(ctx: Ctx, sh: Shared): Panel {
  const lang = ctx.lang;
  const states = ['pending', 'sending', 'in_doubt', 'sent', 'rejected'] as const;
  const counts = {} as Record<(typeof states)[number], HTMLElement>;
  for (const s of states) counts[s] = h('div', { class: 'count-value', testid: `queue-${s}`, text: '0' });
  const tiles = h(
    'div',
    { class: 'count-tiles' },
    states.map((s) => h('div', { class: 'count-tile', data: { state: s } }, [counts[s], h('div', { class: 'count-label', text: t(lang, `queue.${s}`) })])),
  );
  const facts = h('dl', { class: 'facts' });
  const list = h('div', { class: 'rejected-list' });
  const refresh = button(t(lang, 'queue.refresh'), () => void load(), { class: 'small-button', testid: 'rejected-refresh' });
  let lastRejectedCount: number | null = null;
  let loading = false;

  const renderRows = (rows: Rejected[]): void => {
    if (rows.length === 0) return fill(list, [h('p', { class: 'muted', text: t(lang, 'queue.noRejected') })]);
    fill(
      list,
      rows.map((r) => {
        const retry = button(t(lang, 'queue.retry'), () => void retryOne(r.id, retry), { class: 'row-button', testid: 'retry' });
        return h('div', { class: 'rejected-row', testid: 'rejected-row', data: { punchId: String(r.id) } }, [
          h('div', { class: 'rr-main' }, [
            h('div', { class: 'rr-name', text: r.employee_name }),
            h('div', { class: 'rr-when', text: `${formatShortLocalDate(r.local_date, lang)} ${r.local_time}` }),
            h('div', { class: 'rr-reason', text: r.reject_reason ?? r.last_error ?? '' }),
            h('div', { class: 'rr-attempts muted', text: t(lang, 'queue.attempts', { n: r.attempts }) }),
          ]),
          retry,
        ]);
      }),
    );
  };

  const load = async (): Promise<void> => {
    if (loading) return;
    loading = true;
    const r = await sh.calls('listRejected', {});
    loading = false;
    if (!sh.alive() || sh.failed(r)) return;
    renderRows(r.value);
  };

  const retryOne = async (punchId: number, b: HTMLButtonElement): Promise<void> => {
    b.disabled = true;
    const r = await sh.calls('retryRejected', { punchId });
    if (!sh.alive()) return;
    b.disabled = false;
    if (sh.failed(r)) return;
    sh.notice(answerText(lang, r.value), r.value.ok ? 'ok' : 'error');
    await load();
  };

  const el = h('div', { class: 'panel-body queue-panel' }, [
    tiles,
    facts,
    h('div', { class: 'list-head' }, [h('h2', { text: t(lang, 'queue.rejectedList') }), refresh]),
    list,
  ]);
  void load();

  return {
    el,
    update(c) {
      const s = c.status;
      if (!s) return;
      for (const st of states) {
        setText(counts[st], String(s.queue[st]));
        setData(counts[st], 'nonzero', String(s.queue[st] > 0));
      }
      const when = (at: number): string => formatDateTime(at, c.lang, c.timeZone);
      const paused = s.sendingPaused
        ? `${t(c.lang, 'common.yes')}: ${t(c.lang, s.sendingPaused.reason === 'auth' ? 'queue.pausedAuth' : 'queue.pausedRetryAfter', { time: when(s.sendingPaused.until) })}`
        : t(c.lang, 'queue.notPaused');
      fill(facts, [
        row(t(c.lang, 'queue.oldest'), s.oldestUnsentAgeMs === null ? t(c.lang, 'queue.none') : formatDuration(s.oldestUnsentAgeMs, c.lang), 'queue-oldest'),
        row(t(c.lang, 'queue.lastError'), s.lastError ? `${when(s.lastError.at)} — ${s.lastError.message}` : t(c.lang, 'common.dash'), 'queue-last-error'),
        row(t(c.lang, 'queue.paused'), paused, 'queue-paused'),
        s.authRefused ? row(t(c.lang, 'queue.authRefused'), `${when(s.authRefused.at)} — ${s.authRefused.reason}`, 'queue-auth-refused') : null,
      ].filter((x): x is HTMLElement => x !== null));
      for (const dd of facts.querySelectorAll('[data-testid="queue-paused"], [data-testid="queue-auth-refused"]')) if (s.sendingPaused || s.authRefused) dd.classList.add('warn');
      if (lastRejectedCount !== null && lastRejectedCount !== s.queue.rejected) void load();
      lastRejectedCount = s.queue.rejected;
    },
  };
}

// ---- roster --------------------------------------------------------------------------------------

function rosterPanel(ctx: Ctx, sh: Shared): Panel {
  const lang = ctx.lang;
  const facts = h('dl', { class: 'facts' });
  const progress = h('div', { class: 'sync-progress', testid: 'sync-progress', attrs: { 'aria-live': 'polite' } });
  let syncing = false;
  const sync = button(t(lang, 'roster.syncNow'), () => void runSync(), { class: 'action-button', testid: 'sync-roster' });
  const health = h('div', { class: 'health' });
  const employee = textInput('enroll-employee', { maxLength: 200 });
  const scanNow = button(t(lang, 'roster.scanNow'), () => void enroll(), { class: 'action-button', testid: 'enroll-scan' });
  let lastCtx = ctx;

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
    else sh.notice(t(lang, 'admin.failed', { message: r.value.error }), 'error');
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

  const draw = (c: Ctx): void => {
    lastCtx = c;
    const s = c.status;
    if (!s) return;
    const ro = s.roster;
    const when = (at: number): string => formatDateTime(at, c.lang, c.timeZone);
    const last = ro.lastSync
      ? `${when(ro.lastSync.at)} — ${ro.lastSync.ok ? t(c.lang, 'roster.syncOk', { n: ro.lastSync.employees ?? ro.size }) : t(c.lang, 'roster.syncFailed', { error: ro.lastSync.error ?? '?' })}`
      : t(c.lang, 'roster.never');
    fill(facts, [
      row(t(c.lang, 'roster.size'), String(ro.size), 'roster-size'),
      row(t(c.lang, 'roster.lastSync'), last, 'roster-last-sync'),
      ro.lastSync && !ro.lastSync.ok && ro.lastSync.lastOkAt !== null ? row(t(c.lang, 'roster.lastOk'), when(ro.lastSync.lastOkAt)) : null,
      row(t(c.lang, 'roster.enrolled'), String(ro.enrolledBadges), 'roster-enrolled'),
    ].filter((x): x is HTMLElement => x !== null));
    const p = ro.progress;
    setText(
      progress,
      p ? (p.pagesTotal === null ? t(c.lang, 'roster.progressUnknown', { done: p.pagesDone }) : t(c.lang, 'roster.progress', { done: p.pagesDone, total: p.pagesTotal })) : syncing ? t(c.lang, 'roster.syncing') : '',
    );
    setData(progress, 'running', String(p !== null || syncing));
    sync.disabled = syncing || p !== null;
    const hl = ro.health;
    if (hl.employees.length === 0 && hl.missingEmployer === 0 && hl.missingWorkSchedule === 0) {
      fill(health, [h('p', { class: 'muted', text: t(c.lang, 'roster.healthOk') })]);
    } else {
      fill(health, [
        h('p', { class: 'warn', text: t(c.lang, 'roster.healthCounts', { schedule: hl.missingWorkSchedule, employer: hl.missingEmployer }) }),
        h(
          'ul',
          { class: 'health-list' },
          hl.employees.map((e) =>
            h('li', {}, [
              h('span', { class: 'hl-name', text: e.externalId ? `${e.name} (${e.externalId})` : e.name }),
              h('span', { class: 'hl-missing', text: e.missing.map((m) => t(c.lang, m === 'work_schedule' ? 'roster.missingSchedule' : 'roster.missingEmployer')).join(', ') }),
            ]),
          ),
        ),
      ]);
    }
  };

  const el = h('div', { class: 'panel-body roster-panel' }, [
    facts,
    h('div', { class: 'sync-row' }, [sync, progress]),
    h('h2', { text: t(lang, 'roster.enroll') }),
    field(t(lang, 'roster.employee'), employee, scanNow),
    h('h2', { text: t(lang, 'roster.health') }),
    health,
  ]);
  return { el, update: draw };
}

// ---- readers -------------------------------------------------------------------------------------

function readersPanel(): Panel {
  const el = h('div', { class: 'panel-body readers-panel' });
  return {
    el,
    update(c) {
      const s = c.status;
      if (!s) return;
      if (s.readers.length === 0) return fill(el, [h('p', { class: 'muted', text: t(c.lang, 'readers.none') })]);
      const when = (at: number | null): string => (at === null ? t(c.lang, 'common.dash') : formatDateTime(at, c.lang, c.timeZone));
      fill(
        el,
        s.readers.map((r) =>
          h('div', { class: 'reader-card', testid: 'reader', data: { connected: String(r.connected) } }, [
            h('div', { class: 'reader-head' }, [h('span', { class: 'reader-name', text: r.name }), h('span', { class: 'reader-state', text: t(c.lang, r.connected ? 'readers.connected' : 'readers.disconnected') })]),
            h('dl', { class: 'facts' }, [
              row(t(c.lang, 'readers.device'), r.device ?? t(c.lang, 'common.dash')),
              row(t(c.lang, 'readers.lastScan'), when(r.lastScanAt)),
              row('', t(c.lang, 'readers.counts', { scans: r.scans, errors: r.errors, disconnects: r.disconnects })),
              r.lastError ? row(t(c.lang, 'readers.lastError'), r.lastError) : null,
            ].filter((x): x is HTMLElement => x !== null)),
          ]),
        ),
      );
    },
  };
}

// ---- connection ----------------------------------------------------------------------------------

function connectionPanel(): Panel {
  const facts = h('dl', { class: 'facts' });
  return {
    el: h('div', { class: 'panel-body connection-panel' }, [facts]),
    update(c) {
      const s = c.status;
      if (!s) return;
      const ago = (at: number): string => t(c.lang, 'conn.ago', { age: formatDuration(s.now - at, c.lang) });
      const online = s.online === true ? 'conn.state.online' : s.online === false ? 'conn.state.offline' : 'conn.state.unknown';
      const online_ = h('span', { class: s.online === true ? 'good' : s.online === false ? 'bad' : 'muted', text: t(c.lang, online) });
      fill(facts, [
        row(t(c.lang, 'conn.title.online'), online_, 'conn-online'),
        row(t(c.lang, 'conn.lastContact'), s.lastContactAt === null ? t(c.lang, 'roster.never') : `${formatDateTime(s.lastContactAt, c.lang, c.timeZone)} (${ago(s.lastContactAt)})`, 'conn-last-contact'),
        row(
          t(c.lang, 'conn.rate'),
          t(c.lang, 'conn.rateValue', { used: s.rateWindow.used, limit: s.rateWindow.limit, window: formatDuration(s.rateWindow.windowMs, c.lang) }),
          'conn-rate',
        ),
        row(t(c.lang, 'conn.skew'), s.clockSkewMs === null ? t(c.lang, 'conn.unknownValue') : formatSkew(s.clockSkewMs, c.lang), 'conn-skew'),
        row(
          t(c.lang, 'conn.unresolved'),
          s.unresolved.count === 0 || s.unresolved.oldestAt === null ? String(s.unresolved.count) : t(c.lang, 'conn.unresolvedValue', { n: s.unresolved.count, age: formatDuration(s.now - s.unresolved.oldestAt, c.lang) }),
          'conn-unresolved',
        ),
      ]);
    },
  };
}

// ---- settings ------------------------------------------------------------------------------------

function settingsPanel(ctx: Ctx, sh: Shared): Panel {
  const lang = ctx.lang;
  const token = textInput('token-input', { type: 'password', maxLength: 512, placeholder: t(lang, 'settings.tokenPlaceholder') });
  const tokenSave = button(t(lang, 'settings.save'), () => void saveToken(), { class: 'action-button', testid: 'token-save' });
  const source = h('span', { testid: 'token-source' });
  const setAt = h('span', { class: 'muted' });
  const warning = h('div', { class: 'token-warning-slot' });
  const site = textInput('site-input', { maxLength: 64 });
  const siteSave = button(t(lang, 'settings.save'), () => void saveSite(), { class: 'action-button', testid: 'site-save' });
  const limit = textInput('budget-limit', { inputmode: 'numeric', maxLength: 5 });
  const windowS = textInput('budget-window', { inputmode: 'numeric', maxLength: 4 });
  const budgetSave = button(t(lang, 'settings.save'), () => void saveBudget(), { class: 'action-button', testid: 'budget-save' });
  // Prefill from status once, and never over what the manager is typing.
  const dirty = new Set<HTMLInputElement>();
  for (const i of [site, limit, windowS]) i.addEventListener('input', () => dirty.add(i));

  const answered = (r: CallResult<'setApiToken' | 'setSite' | 'setRateBudget'> | null): boolean => {
    if (sh.failed(r)) return false;
    sh.notice(answerText(lang, r.value), r.value.ok ? 'ok' : 'error');
    return r.value.ok;
  };

  const saveToken = async (): Promise<void> => {
    const v = token.value;
    token.value = '';
    if (v.trim() === '') return sh.notice(t(lang, 'settings.needToken'), 'error');
    tokenSave.disabled = true;
    const r = await sh.calls('setApiToken', { token: v.trim() });
    if (!sh.alive()) return;
    tokenSave.disabled = false;
    answered(r);
  };
  const saveSite = async (): Promise<void> => {
    const v = site.value.trim();
    if (v === '') return sh.notice(t(lang, 'settings.needSite'), 'error');
    siteSave.disabled = true;
    const r = await sh.calls('setSite', { siteId: v });
    if (!sh.alive()) return;
    siteSave.disabled = false;
    if (answered(r)) dirty.delete(site);
  };
  const saveBudget = async (): Promise<void> => {
    const l = Number(limit.value.trim());
    const w = Number(windowS.value.trim());
    if (!Number.isInteger(l) || l < 1 || l > 10_000 || !Number.isInteger(w) || w < 1 || w > 3_600) return sh.notice(t(lang, 'settings.badBudget'), 'error');
    budgetSave.disabled = true;
    const r = await sh.calls('setRateBudget', { limit: l, windowMs: w * 1000 });
    if (!sh.alive()) return;
    budgetSave.disabled = false;
    if (answered(r)) {
      dirty.delete(limit);
      dirty.delete(windowS);
    }
  };

  const el = h('div', { class: 'panel-body settings-panel' }, [
    h('section', { class: 'setting' }, [
      field(t(lang, 'settings.token'), token, tokenSave),
      h('div', { class: 'token-info' }, [h('span', { text: `${t(lang, 'settings.tokenSource')}: ` }), source, ' ', setAt]),
      warning,
    ]),
    h('section', { class: 'setting' }, [field(t(lang, 'settings.site'), site, siteSave)]),
    h('section', { class: 'setting' }, [
      h('div', { class: 'field' }, [
        h('label', { text: t(lang, 'settings.budget') }),
        h('div', { class: 'field-row' }, [
          limit,
          h('span', { class: 'per', text: t(lang, 'settings.limit') }),
          windowS,
          h('span', { class: 'per', text: t(lang, 'settings.window') }),
          budgetSave,
        ]),
      ]),
    ]),
  ]);
  limit.setAttribute('aria-label', t(lang, 'settings.limit'));
  windowS.setAttribute('aria-label', t(lang, 'settings.window'));

  return {
    el,
    update(c) {
      const st = c.status?.settings;
      const srcKey: MessageKey = st ? `settings.source.${st.token.source}` : 'settings.source.unknown';
      setText(source, t(c.lang, srcKey));
      setData(source, 'source', st?.token.source ?? 'unknown');
      setText(setAt, st?.token.setAt ? `(${t(c.lang, 'settings.tokenSetAt', { time: formatDateTime(st.token.setAt, c.lang, c.timeZone) })})` : '');
      const w = st?.token.warning ?? null;
      const shown = warning.querySelector('[data-testid="token-warning"]');
      if (w === null && shown) fill(warning, []);
      else if (w !== null && shown?.textContent !== w) fill(warning, [h('div', { class: 'token-warning', testid: 'token-warning', text: w, attrs: { role: 'alert' } })]);
      const prefill = (i: HTMLInputElement, v: string | null | undefined): void => {
        if (v !== null && v !== undefined && !dirty.has(i) && document.activeElement !== i && i.value !== v) i.value = v;
      };
      prefill(site, st?.siteId ?? c.status?.site?.id);
      const rl = st?.rateLimit ?? (c.status ? { limit: c.status.rateWindow.limit, windowMs: c.status.rateWindow.windowMs } : null);
      if (rl) {
        prefill(limit, String(rl.limit));
        prefill(windowS, String(Math.round(rl.windowMs / 1000)));
      }
    },
  };
}

// ---- the screen ----------------------------------------------------------------------------------

export function adminView(ctx: Ctx, calls: AdminCalls, onLock: () => void): AdminView {
  const lang = ctx.lang;
  let alive = true;
  let tab: AdminTab = 'queue';
  let last = ctx;
  const message = h('div', { class: 'admin-message', testid: 'admin-message', attrs: { role: 'status', 'aria-live': 'polite' } });
  const notice = (text: string, tone: Tone): void => {
    setText(message, text);
    setData(message, 'tone', tone);
  };
  const shared: Shared = {
    calls,
    notice,
    lang,
    alive: () => alive,
    failed<N extends CallName>(r: CallResult<N> | null): r is null | Exclude<CallResult<N>, { ok: true }> {
      if (r === null) return true;
      if (r.ok) return false;
      if (alive) notice(t(lang, 'admin.failed', { message: r.error.message }), 'error');
      return true;
    },
  };
  const tabButtons = {} as Record<AdminTab, HTMLButtonElement>;
  for (const name of ADMIN_TABS) tabButtons[name] = button(t(lang, `tab.${name}`), () => select(name), { class: 'tab', testid: `tab-${name}`, attrs: { role: 'tab' } });
  const body = h('div', { class: 'admin-panel', attrs: { role: 'tabpanel' } });
  let panel: Panel | null = null;
  const makePanel = (name: AdminTab): Panel => {
    switch (name) {
      case 'queue':
        return queuePanel(last, shared);
      case 'roster':
        return rosterPanel(last, shared);
      case 'readers':
        return readersPanel();
      case 'connection':
        return connectionPanel();
      case 'settings':
        return settingsPanel(last, shared);
    }
  };
  const select = (name: AdminTab): void => {
    tab = name;
    for (const [n, b] of Object.entries(tabButtons)) b.setAttribute('aria-selected', String(n === tab));
    const p = makePanel(name);
    panel = p;
    fill(body, [p.el]);
    p.update(last);
  };
  const lock = button(t(lang, 'admin.lock'), onLock, { class: 'lock-button', testid: 'lock' });
  const el = h('section', { class: 'screen admin' }, [
    h('header', { class: 'admin-top' }, [h('nav', { class: 'tabs', attrs: { role: 'tablist' } }, ADMIN_TABS.map((n) => tabButtons[n])), lock]),
    message,
    body,
  ]);
  select(tab);

  return {
    el,
    notice,
    update(c) {
      last = c;
      panel?.update(c);
    },
    key(k) {
      const active = document.activeElement;
      if (k === 'Enter') {
        if (active instanceof HTMLButtonElement) active.click();
        else if (active instanceof HTMLInputElement) active.closest('.field-row')?.querySelector<HTMLButtonElement>('button')?.click();
      } else if (k === 'Escape' && active instanceof HTMLElement) {
        active.blur();
      }
      return true;
    },
    destroy() {
      alive = false;
    },
  };
}
