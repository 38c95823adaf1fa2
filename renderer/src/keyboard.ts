/**
 * The one keyboard listener. Every key goes through the wedge detector, so a badge reader's burst
 * becomes one scan and never lands anywhere as typing, while a person's keys come out as `typed`
 * (a few tens of ms late) in order. Printable keys and terminators are always held from the
 * browser (preventDefault); when they come out as typed and a text field has focus, they are
 * inserted there by hand. Other named keys (Backspace, arrows, Tab, …) keep their native action.
 */
import { classifyKey, WedgeDetector, type WedgeOptions } from '../../src/input/wedge-detector.js';

export type KeyboardHandlers = {
  scan(code: string): void;
  /** A typed key for the current screen (not delivered when it was inserted into a field). */
  typed(key: string): void;
  /** Any key press (for inactivity timers). */
  activity(): void;
};

/** A focused field where typed characters belong. */
export function editableTarget(el: Element | null): HTMLInputElement | HTMLTextAreaElement | null {
  if (el instanceof HTMLTextAreaElement && !el.readOnly && !el.disabled) return el;
  if (
    el instanceof HTMLInputElement &&
    !el.readOnly &&
    !el.disabled &&
    ['text', 'password', 'search', 'tel', 'url', 'email'].includes(el.type)
  )
    return el;
  return null;
}

function insert(field: HTMLInputElement | HTMLTextAreaElement, text: string): void {
  const max = field.maxLength;
  if (max >= 0 && field.value.length - ((field.selectionEnd ?? 0) - (field.selectionStart ?? 0)) >= max) return;
  const start = field.selectionStart ?? field.value.length;
  const end = field.selectionEnd ?? field.value.length;
  field.setRangeText(text, start, end, 'end');
  field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: text }));
}

export function installKeyboard(wedge: WedgeOptions, handlers: KeyboardHandlers): () => void {
  const detector = new WedgeDetector(wedge);
  const terminators = detector.options.terminators;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const deliver = (outputs: ReturnType<WedgeDetector['key']>, nativeKey: string | null): void => {
    for (const o of outputs) {
      if (o.type === 'scan') {
        handlers.scan(o.code);
        continue;
      }
      const field = editableTarget(document.activeElement);
      const kind = classifyKey(o.key, terminators);
      if (field && kind === 'printable') {
        insert(field, o.key);
      } else if (field && kind === 'other' && o.key === nativeKey) {
        // The key of this very event: its native action (erase, move, leave the field) happens now.
      } else {
        handlers.typed(o.key);
      }
    }
  };

  const schedule = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const at = detector.nextTickAt();
    if (at === null) return;
    timer = setTimeout(
      () => {
        timer = null;
        deliver(detector.tick(performance.now()), null);
        schedule();
      },
      Math.max(0, at - performance.now()),
    );
  };

  const onKeyDown = (e: KeyboardEvent): void => {
    handlers.activity();
    if (
      e.isComposing ||
      e.ctrlKey ||
      e.metaKey ||
      (e.altKey && e.key !== 'AltGraph' && !e.getModifierState('AltGraph'))
    )
      return; // shortcuts (paste, …) stay native
    const kind = classifyKey(e.key, terminators);
    if (kind === 'printable' || kind === 'terminator') e.preventDefault();
    if (e.repeat) return;
    let outputs: ReturnType<WedgeDetector['key']>;
    try {
      outputs = detector.key(e.key, e.timeStamp);
    } catch {
      return;
    }
    deliver(outputs, e.key);
    schedule();
  };

  document.addEventListener('keydown', onKeyDown, { capture: true });
  return () => {
    document.removeEventListener('keydown', onKeyDown, { capture: true });
    if (timer !== null) clearTimeout(timer);
  };
}
