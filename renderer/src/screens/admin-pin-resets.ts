/**
 * Workers who pressed "Esqueci meu PIN" (issue 29), for the manager (queue tab) and the shift lead:
 * each with when they asked and a field for their new PIN. Setting it closes the request (the agent
 * lists requests until a PIN is set after them).
 */
import type { PinResetRequest } from '../../../src/contract.js';
import { button, fill, h } from '../dom.js';
import { formatDateTime } from '../format.js';
import { answerText, t } from '../i18n.js';
import { field, textInput, type Panel, type Shared } from './admin-common.js';
import type { Ctx } from './view.js';

export function pinResetsPanel(ctx: Ctx, sh: Shared): Panel {
  const lang = ctx.lang;
  const list = h('div', { class: 'pin-resets', testid: 'pin-resets' });
  let zone = ctx.timeZone;

  const load = async (): Promise<void> => {
    const r = await sh.calls('listPinResets', {});
    if (!sh.alive() || sh.failed(r)) return;
    draw(r.value);
  };

  const setPin = async (q: PinResetRequest, input: HTMLInputElement, save: HTMLButtonElement): Promise<void> => {
    const pin = input.value;
    input.value = '';
    if (pin.trim() === '') return;
    save.disabled = true;
    const r = await sh.calls('setPin', { employee: q.employee, pin: pin.trim() });
    if (!sh.alive()) return;
    save.disabled = false;
    if (sh.failed(r)) return;
    sh.notice(answerText(lang, r.value), r.value.ok ? 'ok' : 'error');
    if (r.value.ok) await load();
  };

  const draw = (rows: PinResetRequest[]): void => {
    if (rows.length === 0)
      return fill(list, [h('p', { class: 'muted', testid: 'pin-resets-none', text: t(lang, 'resets.none') })]);
    fill(
      list,
      rows.map((q) => {
        const input = textInput('pin-reset-input', { type: 'password', inputmode: 'numeric', maxLength: 8 });
        const save = button(t(lang, 'resets.save'), () => void setPin(q, input, save), {
          class: 'action-button',
          testid: 'pin-reset-save',
        });
        return h('div', { class: 'pin-reset-row', testid: 'pin-reset-row', attrs: { 'data-employee': q.employee } }, [
          h('div', {
            class: 'pin-reset-who',
            text: t(lang, 'resets.row', {
              name: q.name,
              employee: q.employee,
              when: formatDateTime(q.requestedAt, lang, zone),
            }),
          }),
          field(t(lang, 'resets.newPin', { name: q.name }), input, save),
        ]);
      }),
    );
  };

  const el = h('section', { class: 'panel-body pin-resets-panel' }, [h('h2', { text: t(lang, 'resets.title') }), list]);
  void load();
  return {
    el,
    update(c) {
      zone = c.timeZone;
    },
  };
}
