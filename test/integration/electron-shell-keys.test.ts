/**
 * The kiosk window against a USB keyboard (issue 25, item 3), on the fake Electron in front of a
 * real agent: no application menu, DevTools off unless a developer asked for them, and every key
 * that would reload, close, quit, zoom, print, leave full screen or open tools swallowed before the
 * page or an accelerator sees it, while typing, the keypad and the editing keys go through.
 */
import { describe, expect, it } from 'vitest';
import type { KeyboardInput } from '../../src/main/electron-api.js';
import { electronShellRig } from '../helpers/electron-shell-rig.js';

const { setup } = electronShellRig();

type Key = Partial<KeyboardInput> & Pick<KeyboardInput, 'key' | 'code'>;
const ctrl = (key: string, code: string, more: Partial<KeyboardInput> = {}): Key => ({
  key,
  code,
  control: true,
  ...more,
});

/** What a person can press to get out of, or into the insides of, the kiosk (US layout, as Chromium reports it). */
const SWALLOWED: Array<[string, Key]> = [
  ['Ctrl+R', ctrl('r', 'KeyR')],
  ['Ctrl+Shift+R', ctrl('R', 'KeyR', { shift: true })],
  ['F5', { key: 'F5', code: 'F5' }],
  ['Ctrl+F5', ctrl('F5', 'F5')],
  ['Shift+F5', { key: 'F5', code: 'F5', shift: true }],
  ['Ctrl+W', ctrl('w', 'KeyW')],
  ['Ctrl+Shift+W', ctrl('W', 'KeyW', { shift: true })],
  ['Ctrl+F4', ctrl('F4', 'F4')],
  ['Alt+F4', { key: 'F4', code: 'F4', alt: true }],
  ['Ctrl+Q', ctrl('q', 'KeyQ')],
  ['Cmd+Q', { key: 'q', code: 'KeyQ', meta: true }],
  ['Ctrl+Shift+I', ctrl('I', 'KeyI', { shift: true })],
  ['Ctrl+Shift+J', ctrl('J', 'KeyJ', { shift: true })],
  ['Ctrl+Shift+C', ctrl('C', 'KeyC', { shift: true })],
  ['F12', { key: 'F12', code: 'F12' }],
  ['Ctrl+=', ctrl('=', 'Equal')],
  ['Ctrl+Shift+= (Ctrl++)', ctrl('+', 'Equal', { shift: true })],
  ['Ctrl+-', ctrl('-', 'Minus')],
  ['Ctrl+0', ctrl('0', 'Digit0')],
  ['Ctrl+keypad +', ctrl('+', 'NumpadAdd')],
  ['Ctrl+keypad -', ctrl('-', 'NumpadSubtract')],
  ['Ctrl+keypad 0', ctrl('0', 'Numpad0')],
  ['Ctrl+P', ctrl('p', 'KeyP')],
  ['F11', { key: 'F11', code: 'F11' }],
  ['Ctrl+U', ctrl('u', 'KeyU')],
  ['Alt+Left', { key: 'ArrowLeft', code: 'ArrowLeft', alt: true }],
  ['Alt+Right', { key: 'ArrowRight', code: 'ArrowRight', alt: true }],
  ['Browser Back key', { key: 'BrowserBack', code: 'BrowserBack' }],
  ['Ctrl+N', ctrl('n', 'KeyN')],
  ['Ctrl+T', ctrl('t', 'KeyT')],
  // A French (AZERTY) keyboard: the key printed A sits where Q is on a US one; Ctrl+W is then the Z key.
  ['Ctrl+W on AZERTY', ctrl('w', 'KeyZ')],
  // The same keys going up: nothing half-handled reaches the page.
  ['Ctrl+R released', ctrl('r', 'KeyR', { type: 'keyUp' })],
];

/** Typing, the keypad, a badge reader's burst and the editing keys of the admin fields. */
const PASSED: Array<[string, Key]> = [
  ...'0123456789'.split('').map((d): [string, Key] => [`digit ${d}`, { key: d, code: `Digit${d}` }]),
  ...'0123456789'.split('').map((d): [string, Key] => [`keypad ${d}`, { key: d, code: `Numpad${d}` }]),
  ['letter r', { key: 'r', code: 'KeyR' }],
  ['capital W', { key: 'W', code: 'KeyW', shift: true }],
  ['q', { key: 'q', code: 'KeyQ' }],
  ['+ on the keypad', { key: '+', code: 'NumpadAdd' }],
  ['- on the main row', { key: '-', code: 'Minus' }],
  ['= (Shift+0 on some layouts)', { key: '=', code: 'Digit0', shift: true }],
  ['Enter', { key: 'Enter', code: 'Enter' }],
  ['keypad Enter', { key: 'Enter', code: 'NumpadEnter' }],
  ['Backspace', { key: 'Backspace', code: 'Backspace' }],
  ['Escape', { key: 'Escape', code: 'Escape' }],
  ['Tab', { key: 'Tab', code: 'Tab' }],
  ['Left arrow', { key: 'ArrowLeft', code: 'ArrowLeft' }],
  ['Ctrl+C', ctrl('c', 'KeyC')],
  ['Ctrl+V', ctrl('v', 'KeyV')],
  ['Ctrl+X', ctrl('x', 'KeyX')],
  ['Ctrl+A', ctrl('a', 'KeyA')],
  ['Ctrl+Z', ctrl('z', 'KeyZ')],
  // AltGr on Windows arrives as Ctrl+Alt: AltGr+0 types } on a German keyboard, AltGr+C types ć on a Polish one.
  ['AltGr+0 (})', ctrl('}', 'Digit0', { alt: true })],
  ['AltGr+C (ć)', ctrl('ć', 'KeyC', { alt: true })],
  ['ç', { key: 'ç', code: 'Semicolon' }],
];

describe('a locked kiosk window', () => {
  it('has no application menu and no DevTools', async () => {
    const { electron, win } = await setup();
    expect(electron.Menu.set).toEqual([null]);
    expect(win.options.webPreferences.devTools).toBe(false);
  });

  it(`swallows the ${SWALLOWED.length} keys that reload, close, quit, zoom, print, leave full screen, go back or open tools`, async () => {
    const { win } = await setup();
    expect(SWALLOWED.filter(([, key]) => !win.webContents.press(key)).map(([name]) => name)).toEqual([]);
    expect(win.webContents.devToolsToggled).toBe(0);
  });

  it('lets typing, the keypad, a badge burst and the editing keys through', async () => {
    const { win } = await setup();
    const swallowed = PASSED.filter(([, key]) => win.webContents.press(key)).map(([name]) => name);
    expect(swallowed).toEqual([]);
  });

  it('swallows the same keys in the windowed mode (installers, development)', async () => {
    const { win } = await setup({ kiosk: false });
    expect(SWALLOWED.filter(([, key]) => !win.webContents.press(key)).map(([name]) => name)).toEqual([]);
    expect(win.options.webPreferences.devTools).toBe(false);
  });

  it('with the developer flag, DevTools exist and F12 / Ctrl+Shift+I toggle them; reload, close and quit stay swallowed', async () => {
    const { electron, win } = await setup({ devTools: true });
    expect(electron.Menu.set).toEqual([null]);
    expect(win.options.webPreferences.devTools).toBe(true);
    const wc = win.webContents;
    expect(wc.press({ key: 'F12', code: 'F12' })).toBe(true);
    expect(wc.press(ctrl('I', 'KeyI', { shift: true }))).toBe(true);
    expect(wc.press(ctrl('I', 'KeyI', { shift: true, type: 'keyUp' }))).toBe(true);
    expect(wc.devToolsToggled).toBe(2);
    for (const key of [ctrl('r', 'KeyR'), ctrl('w', 'KeyW'), ctrl('q', 'KeyQ')]) expect(wc.press(key)).toBe(true);
    expect(wc.devToolsToggled).toBe(2);
  });
});
