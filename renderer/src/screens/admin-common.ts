/**
 * What the admin screen's tabs share: how they call the agent and report answers, and the small
 * building blocks of their panels (key-value rows, labelled fields).
 */
import type { CallInput, CallName, CallResult } from '../../../src/contract.js';
import { h } from '../dom.js';
import type { Lang } from '../i18n.js';
import type { Ctx } from './view.js';

/** Admin calls: a `forbidden` answer (session expired) turns into the admin-login screen and answers null here. */
export type AdminCalls = <N extends CallName>(name: N, input: CallInput<N>) => Promise<CallResult<N> | null>;
export type Tone = 'ok' | 'error' | 'info';

/** One tab's content: built when the tab is selected, redrawn in place on every status. */
export type Panel = { el: HTMLElement; update(ctx: Ctx): void };

export type Shared = {
  calls: AdminCalls;
  notice(text: string, tone: Tone): void;
  /** Reports a failed call in the message area; true when the call failed (or the session ended). */
  failed<N extends CallName>(r: CallResult<N> | null): r is null | Exclude<CallResult<N>, { ok: true }>;
  alive(): boolean;
  lang: Lang;
};

/** A label and its value, for the admin's key-value lists. */
export function row(label: string, value: Node | string, testid?: string): HTMLElement {
  const dd = h('dd', testid ? { testid } : {}, [value]);
  return h('div', { class: 'kv' }, [h('dt', { text: label }), dd]);
}

export function field(label: string, input: HTMLInputElement, save: HTMLButtonElement): HTMLElement {
  const id = `f-${Math.random().toString(36).slice(2)}`;
  input.id = id;
  input.autocomplete = 'off';
  input.spellcheck = false;
  return h('div', { class: 'field' }, [
    h('label', { text: label, attrs: { for: id } }),
    h('div', { class: 'field-row' }, [input, save]),
  ]);
}

export function textInput(
  testid: string,
  opts: { type?: string; inputmode?: string; maxLength?: number; placeholder?: string } = {},
): HTMLInputElement {
  const i = h('input', { testid, class: 'text-input' });
  i.type = opts.type ?? 'text';
  if (opts.inputmode) i.inputMode = opts.inputmode;
  if (opts.maxLength) i.maxLength = opts.maxLength;
  if (opts.placeholder) i.placeholder = opts.placeholder;
  return i;
}

/** Keeps the non-null rows (a fact shown only when it applies). */
export function present(rows: ReadonlyArray<HTMLElement | null>): HTMLElement[] {
  return rows.filter((x): x is HTMLElement => x !== null);
}
