/**
 * The shift lead's screen (issue 29): punches held because their PIN was not verified (a locked-out
 * or forgotten PIN), each confirmed with one tap, and the workers waiting for a new PIN. Nothing
 * else: the bridge refuses a shift lead every other admin call (agent/identity/shift-lead.ts).
 */
import type { CallName, CallResult, CallOutput } from '../../../src/contract.js';
import { button, fill, h, setData } from '../dom.js';
import { formatShortLocalDate } from '../format.js';
import { answerText, t } from '../i18n.js';
import type { AdminCalls, Shared, Tone } from './admin-common.js';
import type { AdminView } from './admin.js';
import { pinResetsPanel } from './admin-pin-resets.js';
import type { Ctx } from './view.js';

type Held = CallOutput<'listHeld'>[number];

export function leadView(ctx: Ctx, calls: AdminCalls, onLock: () => void): AdminView {
  const lang = ctx.lang;
  let alive = true;
  const message = h('div', {
    class: 'admin-message',
    testid: 'admin-message',
    attrs: { role: 'status', 'aria-live': 'polite' },
  });
  const notice = (text: string, tone: Tone): void => {
    if (message.textContent !== text)
      message.replaceChildren(...(text === '' ? [] : [h('span', { class: 'admin-message-text', text })]));
    setData(message, 'tone', tone);
  };
  const sh: Shared = {
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
  const held = h('div', { class: 'held-list', testid: 'lead-held-list' });
  const loadHeld = async (): Promise<void> => {
    const r = await calls('listHeld', {});
    if (!alive || sh.failed(r)) return;
    drawHeld(r.value.filter((p) => p.held_reason === 'pin_unverified'));
  };
  const confirm = async (p: Held, b: HTMLButtonElement): Promise<void> => {
    b.disabled = true;
    const r = await calls('decideHeld', { punchId: p.id, decision: 'resend' });
    if (!alive || sh.failed(r)) return;
    notice(answerText(lang, r.value), r.value.ok ? 'ok' : 'error');
    await loadHeld();
  };
  const drawHeld = (rows: Held[]): void => {
    if (rows.length === 0)
      return fill(held, [h('p', { class: 'muted', testid: 'lead-held-none', text: t(lang, 'lead.heldNone') })]);
    fill(
      held,
      rows.map((p) => {
        const b = button(t(lang, 'lead.confirm'), () => void confirm(p, b), {
          class: 'row-button',
          testid: 'lead-confirm',
        });
        const who = t(lang, 'lead.heldRow', {
          name: p.employee_name ?? '?',
          employee: p.employee_external_id ?? '?',
          date: formatShortLocalDate(p.local_date, lang),
          time: p.local_time,
        });
        return h('div', { class: 'held-row', testid: 'lead-held-row', attrs: { 'data-punch-id': String(p.id) } }, [
          h('span', { text: who }),
          b,
        ]);
      }),
    );
  };
  const resets = pinResetsPanel(ctx, sh);
  const lock = button(t(lang, 'admin.lock'), onLock, { class: 'lock-button', testid: 'lock' });
  const el = h('section', { class: 'screen admin lead', testid: 'lead-screen' }, [
    h('header', { class: 'admin-top' }, [h('h1', { class: 'lead-title', text: t(lang, 'lead.title') }), lock]),
    message,
    h('div', { class: 'admin-panel' }, [
      h('div', { class: 'panel-stack' }, [
        h('section', { class: 'panel-body' }, [h('h2', { text: t(lang, 'lead.heldTitle') }), held]),
        resets.el,
      ]),
    ]),
  ]);
  void loadHeld();
  return {
    el,
    notice,
    update(c) {
      resets.update(c);
    },
    key(k) {
      const active = document.activeElement;
      if (k === 'Enter' && active instanceof HTMLInputElement)
        active.closest('.field-row')?.querySelector<HTMLButtonElement>('button')?.click();
      return true;
    },
    destroy() {
      alive = false;
    },
  };
}
