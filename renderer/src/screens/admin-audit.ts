/**
 * The admin screen's comparison of the evidence journal with the service, below the receipt
 * lookup: two days, a button, and what the last comparison found (audit-view.ts words it). The
 * comparison runs in the agent at the lowest priority; while it runs the panel asks how far it got.
 */
import type { AuditState } from '../../../src/contract.js';
import { auditRangeOk, auditRows, localToday } from '../audit-view.js';
import { button, fill, h } from '../dom.js';
import { t } from '../i18n.js';
import { row, textInput, type Panel, type Shared } from './admin-common.js';
import type { Ctx } from './view.js';

const POLL_MS = 2_000;

export function auditPanel(ctx: Ctx, sh: Shared): Panel {
  const lang = ctx.lang;
  let timeZone = ctx.timeZone;
  const today = localToday(ctx.now, timeZone);
  const from = textInput('audit-from', { type: 'date' });
  const to = textInput('audit-to', { type: 'date' });
  // Each date field named on its own (axe-core: a field without a label is critical), the pair by the visible label.
  from.setAttribute('aria-label', t(lang, 'afd.from'));
  to.setAttribute('aria-label', t(lang, 'afd.to'));
  const rangeId = `audit-range-${Math.random().toString(36).slice(2)}`;
  from.value = `${today.slice(0, 8)}01`;
  to.value = today;
  const run = button(t(lang, 'audit.run'), () => void compare(), { class: 'action-button', testid: 'audit-run' });
  const facts = h('dl', { class: 'facts', testid: 'audit-summary' });
  let last: AuditState | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let asking = false;

  const el = h('div', { class: 'panel-body audit-panel', testid: 'audit-panel' }, [
    h('h2', { text: t(lang, 'audit.title') }),
    h('section', { class: 'setting' }, [
      h('div', { class: 'field' }, [
        h('label', { text: t(lang, 'audit.range'), attrs: { id: rangeId } }),
        h('div', { class: 'field-row', attrs: { role: 'group', 'aria-labelledby': rangeId } }, [from, to, run]),
      ]),
      h('p', { class: 'muted', text: t(lang, 'audit.hint') }),
    ]),
    facts,
  ]);

  const show = (s: AuditState): void => {
    last = s;
    fill(
      facts,
      auditRows(s, lang, timeZone).map((r) => row(r.label, r.value, `audit-${r.key}`)),
    );
    run.disabled = asking || s.running !== null;
    if (s.running !== null) later();
  };
  // Only while the panel is on screen: another tab, or the admin screen closed, ends the polling.
  const later = (): void => {
    if (timer !== null) return;
    timer = setTimeout(() => {
      timer = null;
      if (sh.alive() && el.isConnected) void refresh();
    }, POLL_MS);
  };
  const refresh = async (): Promise<void> => {
    const r = await sh.calls('auditCompareState', {});
    if (!sh.alive() || r === null || !r.ok) return;
    show(r.value);
  };

  const compare = async (): Promise<void> => {
    if (!auditRangeOk(from.value, to.value)) return sh.notice(t(lang, 'audit.badRange'), 'error');
    if (asking) return;
    asking = true;
    run.disabled = true;
    sh.notice('', 'info');
    const pending = sh.calls('auditCompare', { from: from.value, to: to.value });
    later();
    const r = await pending;
    asking = false;
    if (!sh.alive()) return;
    run.disabled = false;
    if (sh.failed(r)) return;
    sh.notice(
      t(lang, 'audit.done', { found: r.value.found, marks: r.value.marks }),
      r.value.found === r.value.marks ? 'ok' : 'error',
    );
    await refresh();
  };

  void refresh();
  return {
    el,
    update(c) {
      if (c.timeZone === timeZone) return;
      timeZone = c.timeZone;
      if (last) show(last);
    },
  };
}

/** Two panels one under the other in one tab (the receipt lookup, then this). */
export function stackedPanels(...panels: Panel[]): Panel {
  return {
    el: h(
      'div',
      { class: 'panel-stack' },
      panels.map((p) => p.el),
    ),
    update(c) {
      for (const p of panels) p.update(c);
    },
  };
}
