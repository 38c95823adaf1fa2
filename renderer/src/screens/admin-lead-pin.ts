/** The settings tab's shift lead PIN (issue 29): set by the manager; a login with it opens only screens/lead.ts. */
import { button, h } from '../dom.js';
import { answerText, t } from '../i18n.js';
import { field, textInput, type Panel, type Shared } from './admin-common.js';
import type { Ctx } from './view.js';

export function leadPinPanel(ctx: Ctx, sh: Shared): Panel {
  const lang = ctx.lang;
  const input = textInput('lead-pin-input', { type: 'password', inputmode: 'numeric', maxLength: 8 });
  const save = button(t(lang, 'lead.save'), () => void submit(), { class: 'action-button', testid: 'lead-pin-save' });
  const submit = async (): Promise<void> => {
    const pin = input.value.trim();
    input.value = '';
    if (pin === '') return;
    save.disabled = true;
    const r = await sh.calls('setShiftLeadPin', { pin });
    if (!sh.alive()) return;
    save.disabled = false;
    if (sh.failed(r)) return;
    sh.notice(answerText(lang, r.value), r.value.ok ? 'ok' : 'error');
  };
  const el = h('section', { class: 'panel-body setting lead-pin-panel' }, [
    field(t(lang, 'lead.pinTitle'), input, save),
    h('p', { class: 'muted', testid: 'lead-pin-help', text: t(lang, 'lead.pinHelp') }),
  ]);
  return { el, update: () => {} };
}
