/**
 * The manager's screen: seven tabs that fit 800×480 (lists scroll inside their panel), one message
 * area, a lock button. Calls go through `AdminCalls`, which turns a `forbidden` answer (session
 * expired) into the admin-login screen and answers null here. Each tab's panel is in its own file
 * (admin-queue, admin-roster, admin-status, admin-settings, admin-receipt, admin-afd); what they share is in
 * admin-common.
 */
import type { CallName, CallResult } from '../../../src/contract.js';
import { button, fill, h, setData } from '../dom.js';
import { t } from '../i18n.js';
import type { AdminCalls, Panel, Shared, Tone } from './admin-common.js';
import { queuePanel } from './admin-queue.js';
import { receiptPanel } from './admin-receipt.js';
import { afdPanel } from './admin-afd.js';
import { archivesPanel } from './admin-archives.js';
import { punchesPanel } from './admin-punches.js';
import { auditPanel, stackedPanels } from './admin-audit.js';
import { rosterPanel } from './admin-roster.js';
import { settingsPanel } from './admin-settings.js';
import { connectionPanel, readersPanel } from './admin-status.js';
import { presencePanel } from './admin-presence.js';
import type { Ctx, View } from './view.js';
import { pinResetsPanel } from './admin-pin-resets.js';
import { leadPinPanel } from './admin-lead-pin.js';

export type { AdminCalls } from './admin-common.js';
export type AdminTab =
  'queue' | 'roster' | 'readers' | 'connection' | 'settings' | 'receipt' | 'afd' | 'punches' | 'presence';
export const ADMIN_TABS: readonly AdminTab[] = [
  'queue',
  'roster',
  'readers',
  'connection',
  'settings',
  'receipt',
  'afd',
  'punches',
  'presence',
];

export type AdminView = View & { notice(text: string, tone: Tone): void };

export function adminView(ctx: Ctx, calls: AdminCalls, onLock: () => void): AdminView {
  const lang = ctx.lang;
  let alive = true;
  let tab: AdminTab = 'queue';
  let last = ctx;
  const message = h('div', {
    class: 'admin-message',
    testid: 'admin-message',
    attrs: { role: 'status', 'aria-live': 'polite' },
  });
  const notice = (text: string, tone: Tone): void => {
    // In a span of its own: the text is clamped to two lines inside the box's padding (95-long-text.css).
    if (message.textContent !== text)
      message.replaceChildren(...(text === '' ? [] : [h('span', { class: 'admin-message-text', text })]));
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
  for (const name of ADMIN_TABS)
    tabButtons[name] = button(t(lang, `tab.${name}`), () => select(name), {
      class: 'tab',
      testid: `tab-${name}`,
      attrs: { role: 'tab' },
    });
  const body = h('div', { class: 'admin-panel', attrs: { role: 'tabpanel' } });
  let panel: Panel | null = null;
  const makePanel = (name: AdminTab): Panel => {
    switch (name) {
      case 'queue':
        return stackedPanels(queuePanel(last, shared), pinResetsPanel(last, shared));
      case 'roster':
        return rosterPanel(last, shared);
      case 'readers':
        return readersPanel();
      case 'connection':
        return connectionPanel();
      case 'settings':
        return stackedPanels(settingsPanel(last, shared), leadPinPanel(last, shared));
      case 'receipt':
        // The journal's tab: a receipt by NSR, the journal compared with the service, and its archives.
        return stackedPanels(receiptPanel(last, shared), auditPanel(last, shared), archivesPanel(last));
      case 'afd':
        return afdPanel(last, shared);
      case 'punches':
        return punchesPanel(last, shared);
      case 'presence':
        return presencePanel(last, shared);
    }
  };
  const select = (name: AdminTab): void => {
    tab = name;
    for (const [n, b] of Object.entries(tabButtons)) b.setAttribute('aria-selected', String(n === tab));
    const p = makePanel(name);
    panel = p;
    fill(body, [p.el]);
    body.scrollTop = 0; // a tab opens at its top, wherever the last one was scrolled to
    // The tab bar wraps (60-admin.css), so every tab is in sight; this only matters to a narrower bar (no-op in tests
    // without layout).
    tabButtons[name]?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    heading.textContent = `${t(lang, 'idle.admin')}: ${t(lang, `tab.${name}`)}`;
    p.update(last);
  };
  const lock = button(t(lang, 'admin.lock'), onLock, { class: 'lock-button', testid: 'lock' });
  // The screen's heading for screen readers ("Gestor: Fila"); the chosen tab shows it to the eye.
  const heading = h('h1', { class: 'sr-only', testid: 'admin-heading' });
  const el = h('section', { class: 'screen admin' }, [
    heading,
    h('header', { class: 'admin-top' }, [
      h(
        'nav',
        { class: 'tabs', attrs: { role: 'tablist' } },
        ADMIN_TABS.map((n) => tabButtons[n]),
      ),
      lock,
    ]),
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
        else if (active instanceof HTMLInputElement)
          active.closest('.field-row')?.querySelector<HTMLButtonElement>('button')?.click();
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
