/**
 * The admin screen's settings tab: the API token, the site, the request budget, and the configuration warnings under
 * them.
 */
import type { CallResult } from '../../../src/contract.js';
import { button, fill, h, setData, setText } from '../dom.js';
import { formatDateTime } from '../format.js';
import { answerText, t, type MessageKey } from '../i18n.js';
import { warningsAlert } from './admin-alerts.js';
import { field, textInput, type Panel, type Shared } from './admin-common.js';
import type { Ctx } from './view.js';

export function settingsPanel(ctx: Ctx, sh: Shared): Panel {
  const lang = ctx.lang;
  const token = textInput('token-input', {
    type: 'password',
    maxLength: 512,
    placeholder: t(lang, 'settings.tokenPlaceholder'),
  });
  const tokenSave = button(t(lang, 'settings.save'), () => void saveToken(), {
    class: 'action-button',
    testid: 'token-save',
  });
  const source = h('span', { testid: 'token-source' });
  const setAt = h('span', { class: 'muted' });
  const warning = h('div', { class: 'token-warning-slot' });
  const site = textInput('site-input', { maxLength: 64 });
  const siteSave = button(t(lang, 'settings.save'), () => void saveSite(), {
    class: 'action-button',
    testid: 'site-save',
  });
  const limit = textInput('budget-limit', { inputmode: 'numeric', maxLength: 5 });
  const windowS = textInput('budget-window', { inputmode: 'numeric', maxLength: 4 });
  const budgetSave = button(t(lang, 'settings.save'), () => void saveBudget(), {
    class: 'action-button',
    testid: 'budget-save',
  });
  const warnings = warningsAlert();
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
    if (!Number.isInteger(l) || l < 1 || l > 10_000 || !Number.isInteger(w) || w < 1 || w > 3_600)
      return sh.notice(t(lang, 'settings.badBudget'), 'error');
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
      h('div', { class: 'token-info' }, [
        h('span', { text: `${t(lang, 'settings.tokenSource')}: ` }),
        source,
        ' ',
        setAt,
      ]),
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
    warnings.el,
  ]);
  limit.setAttribute('aria-label', t(lang, 'settings.limit'));
  windowS.setAttribute('aria-label', t(lang, 'settings.window'));

  return {
    el,
    update(c) {
      warnings.update(c);
      const st = c.status?.settings;
      const srcKey: MessageKey = st ? `settings.source.${st.token.source}` : 'settings.source.unknown';
      setText(source, t(c.lang, srcKey));
      setData(source, 'source', st?.token.source ?? 'unknown');
      setText(
        setAt,
        st?.token.setAt
          ? `(${t(c.lang, 'settings.tokenSetAt', { time: formatDateTime(st.token.setAt, c.lang, c.timeZone) })})`
          : '',
      );
      const w = st?.token.warning ?? null;
      const shown = warning.querySelector('[data-testid="token-warning"]');
      if (w === null && shown) fill(warning, []);
      else if (w !== null && shown?.textContent !== w)
        fill(warning, [
          h('div', { class: 'token-warning', testid: 'token-warning', text: w, attrs: { role: 'alert' } }),
        ]);
      const prefill = (i: HTMLInputElement, v: string | null | undefined): void => {
        if (v !== null && v !== undefined && !dirty.has(i) && document.activeElement !== i && i.value !== v)
          i.value = v;
      };
      prefill(site, st?.siteId ?? c.status?.site?.id);
      const rl =
        st?.rateLimit ??
        (c.status ? { limit: c.status.rateWindow.limit, windowMs: c.status.rateWindow.windowMs } : null);
      if (rl) {
        prefill(limit, String(rl.limit));
        prefill(windowS, String(Math.round(rl.windowMs / 1000)));
      }
    },
  };
}
