/**
 * Building DOM without innerHTML: every text goes in through textContent, so names from the API
 * can never become markup.
 */
export type Props = {
  class?: string;
  testid?: string;
  text?: string;
  data?: Record<string, string>;
  attrs?: Record<string, string>;
  onClick?: () => void;
};

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  children: ReadonlyArray<Node | string | null> = [],
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.testid) el.dataset.testid = props.testid;
  if (props.text !== undefined) el.textContent = props.text;
  if (props.data) for (const [k, v] of Object.entries(props.data)) el.dataset[k] = v;
  if (props.attrs) for (const [k, v] of Object.entries(props.attrs)) el.setAttribute(k, v);
  const onClick = props.onClick;
  if (onClick) el.addEventListener('click', () => onClick());
  for (const c of children) if (c !== null) el.append(c);
  return el;
}

/** A button that never submits anything and never keeps focus-triggered keyboard activation to itself. */
export function button(
  text: string,
  onClick: () => void,
  props: Omit<Props, 'text' | 'onClick'> = {},
): HTMLButtonElement {
  const b = h('button', { ...props, text, onClick: () => onClick() });
  b.type = 'button';
  return b;
}

/** Sets text only when it changed (no needless layout, no lost selection). */
export function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

export function setData(el: HTMLElement, key: string, value: string): void {
  if (el.dataset[key] !== value) el.dataset[key] = value;
}

/** Replaces an element's children. */
export function fill(el: Element, children: ReadonlyArray<Node | string | null>): void {
  el.replaceChildren(...children.filter((c): c is Node | string => c !== null));
}
