/** Loading, and the agent not answering. */
import { h } from '../dom.js';
import { t } from '../i18n.js';
import type { Ctx, View } from './view.js';

export function loadingView(ctx: Ctx): View {
  return {
    el: h('section', { class: 'screen loading' }, [
      h('div', { class: 'spinner', attrs: { 'aria-hidden': 'true' } }),
      h('div', { class: 'loading-text', text: t(ctx.lang, 'loading') }),
    ]),
    update() {},
  };
}

export function offlineAgentView(ctx: Ctx): View {
  return {
    el: h('section', { class: 'screen offline-agent', attrs: { role: 'alert' } }, [
      h('div', { class: 'down-icon', text: '!', attrs: { 'aria-hidden': 'true' } }),
      h('h1', { class: 'down-title', testid: 'agent-down', text: t(ctx.lang, 'agent.down.title') }),
      h('p', { class: 'down-body', text: t(ctx.lang, 'agent.down.body') }),
      h('p', { class: 'down-retry', text: t(ctx.lang, 'agent.down.retrying') }),
    ]),
    update() {},
  };
}
