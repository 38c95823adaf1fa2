/**
 * The managed policy the package ships for the browser screen (issue 25, item 3): Chromium has no
 * command-line switch that turns DevTools off, its policy DeveloperToolsAvailability=2 does. The
 * file must be a JSON object Chromium reads (/etc/chromium/policies/managed/*.json) with the
 * values that lock the kiosk, and it must be among the resources the package carries.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('the Chromium policy for the browser screen', () => {
  it('turns DevTools, printing, guest and incognito windows off, and ships with the package', () => {
    const policy: unknown = JSON.parse(fs.readFileSync('assets/chromium-policy.json', 'utf8'));
    expect(policy).toEqual({
      // 2: DevTools disallowed everywhere (0 allowed, 1 allowed except for force-installed extensions).
      DeveloperToolsAvailability: 2,
      PrintingEnabled: false,
      // 1: incognito disabled.
      IncognitoModeAvailability: 1,
      BrowserGuestModeEnabled: false,
      BrowserAddPersonEnabled: false,
      PasswordManagerEnabled: false,
      TranslateEnabled: false,
    });
    expect(fs.readFileSync('electron-builder.yml', 'utf8')).toMatch(/^ {6}- chromium-policy\.json$/m);
  });
});
