/** The touch keypad: an ID, an employee's PIN, or the manager's PIN (masked). */
import { button, fill, h, setData, setText } from '../dom.js';
import { t, type Lang } from '../i18n.js';
import type { AdminLoginError, Screen } from '../machine.js';
import { displayedId, idTitle, showValue } from '../keypad-field.js';
import { pinErrorText, pinTitle } from '../pin-step.js';
import type { Ctx, View } from './view.js';
import { forgotPinButton } from './forgot-pin.js';

type KeypadScreen = Extract<Screen, { name: 'keypad' | 'pin' | 'admin-login' }>;

export function loginErrorText(error: AdminLoginError, lang: Lang): string {
  switch (error.kind) {
    case 'wrong':
      return t(lang, 'admin.wrongPin');
    case 'too_many':
      // Locked, not wrong: the manager's right PIN is not even checked until the lock ends.
      return error.lockedForMs === undefined
        ? t(lang, 'admin.tooMany')
        : t(lang, 'admin.lockedFor', { n: Math.ceil(error.lockedForMs / 60_000) });
    case 'expired':
      return t(lang, 'admin.expired');
    case 'no_admin_pin':
      return t(lang, 'admin.noAdminPin');
    case 'disabled':
      return t(lang, 'admin.disabled');
    case 'other':
      return error.message;
  }
}

function titleOf(s: KeypadScreen, c: Ctx): string {
  const lang = c.lang;
  switch (s.name) {
    case 'keypad':
      return idTitle(c.settings?.idKinds, lang);
    case 'pin':
      return pinTitle(s.employeeName, c.settings?.pinShowName, lang);
    case 'admin-login':
      return t(lang, 'keypad.titleAdmin');
  }
}

export function keypadView(ctx: Ctx): View {
  const { lang } = ctx;
  const key = (k: string) => () => ctx.dispatch({ type: 'key', key: k });
  const title = h('h1', { class: 'keypad-title' });
  const text = h('span', { class: 'keypad-text' });
  const value = h('div', { class: 'keypad-value', testid: 'keypad-value', attrs: { 'aria-live': 'polite' } }, [text]);
  const note = h('div', { class: 'keypad-note', attrs: { role: 'alert' } });
  const digits = ['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((d) =>
    button(d, key(d), { class: 'key', testid: `key-${d}` }),
  );
  const grid = h('div', { class: 'keypad-grid' }, [
    ...digits,
    button(t(lang, 'keypad.clear'), key('Clear'), { class: 'key key-fn', testid: 'key-clear' }),
    button('0', key('0'), { class: 'key', testid: 'key-0' }),
    button('⌫', key('Backspace'), {
      class: 'key key-fn',
      testid: 'key-back',
      attrs: { 'aria-label': t(lang, 'keypad.back') },
    }),
  ]);
  const cancel = button(t(lang, 'keypad.cancel'), key('Escape'), { class: 'action cancel', testid: 'key-cancel' });
  const ok = button(t(lang, 'keypad.ok'), key('Enter'), { class: 'action ok', testid: 'key-ok' });
  const forgot = ctx.model.screen.name === 'pin' ? forgotPinButton(ctx) : null;
  const el = h('section', { class: 'screen keypad' }, [
    h('div', { class: 'keypad-side' }, [
      title,
      value,
      note,
      forgot,
      h('div', { class: 'keypad-actions' }, [cancel, ok]),
    ]),
    grid,
  ]);

  return {
    el,
    update(c) {
      const s = c.model.screen;
      if (s.name !== 'keypad' && s.name !== 'pin' && s.name !== 'admin-login') return;
      setText(title, titleOf(s, c));
      const masked = s.name !== 'keypad';
      showValue(value, text, masked ? '•'.repeat([...s.value].length) : displayedId(s.value, c.settings?.idKinds));
      setData(value, 'masked', String(masked));
      setData(value, 'empty', String(s.value === ''));
      ok.disabled = c.model.busy;
      if (forgot) forgot.disabled = c.model.busy;
      if (s.name === 'admin-login' && s.error) {
        if (
          !note.querySelector('[data-testid="admin-login-error"]') ||
          note.textContent !== loginErrorText(s.error, c.lang)
        ) {
          fill(note, [
            h('span', { class: 'error-text', testid: 'admin-login-error', text: loginErrorText(s.error, c.lang) }),
          ]);
        }
      } else if (s.name === 'pin' && s.error && !c.model.busy) {
        const said = pinErrorText(s.error, c.lang);
        if (note.textContent !== said)
          fill(note, [h('span', { class: 'error-text', testid: 'pin-error', text: said })]);
      } else if (c.model.busy) {
        if (note.textContent !== t(c.lang, 'keypad.sending'))
          fill(note, [h('span', { class: 'busy-text', text: t(c.lang, 'keypad.sending') })]);
      } else if (note.childNodes.length > 0) {
        fill(note, []);
      }
    },
  };
}
