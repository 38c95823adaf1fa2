/**
 * Issue 31: the Electron shell's permission handlers, on the fake Electron in front of a real agent.
 * With photo.mode on-punch (the agent's screen settings carry `photo`), the kiosk page alone may open
 * the camera, video only, in its main frame; nothing else is granted, to it or to anyone.
 */
import { describe, expect, it } from 'vitest';
import type { ScreenSettings } from '../../src/contract.js';
import { DEFAULT_SCREEN_SETTINGS } from '../../src/agent/bridge-handlers.js';
import { electronShellRig } from '../helpers/electron-shell-rig.js';
import { FakeWebContents } from '../helpers/fake-web-contents.js';

const { setup } = electronShellRig();

const photosOn: ScreenSettings = {
  ...DEFAULT_SCREEN_SETTINGS,
  photo: { width: 320, height: 240, maxBytes: 30_000, keepDays: 30 },
};

/** The request handler's answer for one request, as Electron would ask it. */
function asked(
  wc: FakeWebContents,
  on: FakeWebContents,
  permission: string,
  details?: { requestingUrl?: string; isMainFrame?: boolean; mediaTypes?: string[] },
): boolean[] {
  const answers: boolean[] = [];
  on.session.permissionRequest?.(wc, permission, (granted) => answers.push(granted), details);
  return answers;
}

describe('camera permission (photo.mode on-punch)', () => {
  it('grants media for video to the kiosk page’s main frame, and nothing else', async () => {
    const { win, url } = await setup({ screen: photosOn });
    const wc = win.webContents;
    const page = { requestingUrl: url, isMainFrame: true };
    expect(asked(wc, wc, 'media', { ...page, mediaTypes: ['video'] })).toEqual([true]);
    // no media types named: refused
    expect(asked(wc, wc, 'media', { ...page, requestingUrl: `${url}#admin` })).toEqual([false]);
    expect(asked(wc, wc, 'media', { ...page, requestingUrl: `${url}#admin`, mediaTypes: ['video'] })).toEqual([true]);
    // The microphone, alone or with the camera: refused.
    expect(asked(wc, wc, 'media', { ...page, mediaTypes: ['audio'] })).toEqual([false]);
    expect(asked(wc, wc, 'media', { ...page, mediaTypes: ['video', 'audio'] })).toEqual([false]);
    // Another page, a frame inside ours, or another window's contents: refused.
    expect(
      asked(wc, wc, 'media', { requestingUrl: 'https://evil.example/', isMainFrame: true, mediaTypes: ['video'] }),
    ).toEqual([false]);
    expect(
      asked(wc, wc, 'media', { requestingUrl: 'file:///tmp/other.html', isMainFrame: true, mediaTypes: ['video'] }),
    ).toEqual([false]);
    expect(asked(wc, wc, 'media', { ...page, isMainFrame: false, mediaTypes: ['video'] })).toEqual([false]);
    expect(asked(new FakeWebContents(), wc, 'media', { ...page, mediaTypes: ['video'] })).toEqual([false]);
    expect(asked(wc, wc, 'media')).toEqual([false]);
    for (const permission of [
      'geolocation',
      'notifications',
      'hid',
      'clipboard-read',
      'fullscreen',
      'display-capture',
      'midi',
    ]) {
      expect(asked(wc, wc, permission, { ...page, mediaTypes: ['video'] }), permission).toEqual([false]);
    }

    const check = wc.session.permissionCheck;
    expect(check?.(wc, 'media', 'file://', { requestingUrl: url, mediaType: 'video' })).toBe(true);
    expect(check?.(wc, 'media', 'file://', { requestingUrl: url, mediaType: 'audio' })).toBe(false);
    expect(
      check?.(wc, 'media', 'https://evil.example', { requestingUrl: 'https://evil.example/', mediaType: 'video' }),
    ).toBe(false);
    expect(check?.(null, 'media', 'file://', { requestingUrl: url, mediaType: 'video' })).toBe(false);
    expect(check?.(wc, 'notifications', 'file://', { requestingUrl: url })).toBe(false);
  });

  it('with photos off (the default), the camera is refused like everything else', async () => {
    const { win, url } = await setup();
    const wc = win.webContents;
    expect(asked(wc, wc, 'media', { requestingUrl: url, isMainFrame: true, mediaTypes: ['video'] })).toEqual([false]);
    expect(wc.session.permissionCheck?.(wc, 'media', 'file://', { requestingUrl: url, mediaType: 'video' })).toBe(
      false,
    );
  });
});
