/**
 * The keys a kiosk window swallows: everything that would reload, close or quit the app, zoom or
 * print the page, leave full screen, go back, or open developer tools. Electron's default menu
 * brings most of them as accelerators (the shell removes that menu), Chromium handles a few itself
 * (F5, F11, zoom); a USB keyboard on the kiosk can press any of them. Ordinary typing, the keypad,
 * a badge reader's burst and the editing keys (Ctrl+C, Ctrl+V, Ctrl+A, Ctrl+Z) are never here.
 */
import type { KeyboardInput } from './electron-api.js';

/** A modifier that must be down (true), up (false), or does not matter ('any'). */
type Modifier = boolean | 'any';

export type KioskShortcut = {
  what:
    | 'reload'
    | 'close'
    | 'quit'
    | 'devtools'
    | 'zoom'
    | 'print'
    | 'fullscreen'
    | 'view-source'
    | 'navigate'
    | 'new-window';
  /** Matched against the input's `key` (lower-cased) and its layout-free `code`. */
  keys: readonly string[];
  /** Ctrl, or Cmd on a Mac keyboard. */
  mod?: Modifier;
  shift?: Modifier;
  alt?: Modifier;
};

const letter = (l: string): string[] => [l, `Key${l.toUpperCase()}`];

export const KIOSK_SHORTCUTS: readonly KioskShortcut[] = [
  // Ctrl+R, Ctrl+Shift+R (reload without cache), F5 with or without Ctrl or Shift.
  { what: 'reload', keys: letter('r'), mod: true, shift: 'any' },
  { what: 'reload', keys: ['f5', 'F5', 'browserrefresh', 'BrowserRefresh'], mod: 'any', shift: 'any', alt: 'any' },
  // Ctrl+W, Ctrl+Shift+W, Ctrl+F4, Alt+F4.
  { what: 'close', keys: letter('w'), mod: true, shift: 'any' },
  { what: 'close', keys: ['f4', 'F4'], mod: true },
  { what: 'close', keys: ['f4', 'F4'], alt: true },
  { what: 'quit', keys: letter('q'), mod: true, shift: 'any' },
  // Ctrl+Shift+I / J / C, F12. (Not Ctrl+Alt+letter: on Windows that is AltGr, which types ć, €, @…)
  { what: 'devtools', keys: [...letter('i'), ...letter('j'), ...letter('c')], mod: true, shift: true },
  { what: 'devtools', keys: ['f12', 'F12'], mod: 'any', shift: 'any', alt: 'any' },
  // Ctrl and + = - _ 0 ), on the main row or the keypad: zoom in, out, reset.
  {
    what: 'zoom',
    keys: ['+', '=', '-', '_', '0', ')', 'Equal', 'Minus', 'Digit0', 'NumpadAdd', 'NumpadSubtract', 'Numpad0'],
    mod: true,
    shift: 'any',
  },
  { what: 'print', keys: letter('p'), mod: true, shift: 'any' },
  { what: 'fullscreen', keys: ['f11', 'F11'], mod: 'any', shift: 'any', alt: 'any' },
  { what: 'view-source', keys: letter('u'), mod: true },
  // Alt+Left / Right / Home and the keyboard's own browser keys.
  { what: 'navigate', keys: ['arrowleft', 'ArrowLeft', 'arrowright', 'ArrowRight', 'home', 'Home'], alt: true },
  {
    what: 'navigate',
    keys: ['browserback', 'BrowserBack', 'browserforward', 'BrowserForward', 'browserhome', 'BrowserHome'],
    mod: 'any',
    shift: 'any',
    alt: 'any',
  },
  { what: 'new-window', keys: [...letter('n'), ...letter('t')], mod: true, shift: 'any' },
];

const fits = (wanted: Modifier | undefined, down: boolean): boolean => wanted === 'any' || (wanted ?? false) === down;

/** The shortcut `input` presses, or null for anything else (typing, editing keys, a badge burst). */
export function kioskShortcutOf(input: KeyboardInput): KioskShortcut | null {
  const key = input.key.toLowerCase();
  const mod = input.control || input.meta;
  for (const s of KIOSK_SHORTCUTS) {
    if (!s.keys.includes(key) && !s.keys.includes(input.code)) continue;
    if (fits(s.mod, mod) && fits(s.shift, input.shift) && fits(s.alt, input.alt)) return s;
  }
  return null;
}
