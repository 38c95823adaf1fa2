/** "Esqueci meu PIN" on the PIN step (issue 29): the punch is taken and held for the manager, never refused. */
import { button } from '../dom.js';
import { t } from '../i18n.js';
import type { Ctx } from './view.js';

export function forgotPinButton(ctx: Ctx): HTMLButtonElement {
  return button(t(ctx.lang, 'keypad.forgotPin'), () => ctx.dispatch({ type: 'forgotPin' }), {
    class: 'forgot-pin',
    testid: 'forgot-pin',
  });
}
