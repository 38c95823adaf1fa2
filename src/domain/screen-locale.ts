/**
 * The site's screen language as Chromium's own locale (Electron's `--lang`, a browser's LANGUAGE):
 * what the page's date fields, `navigator.language` and Intl's defaults follow. The screen words
 * its texts itself; the admin panels' date fields are drawn by Chromium in its locale, so without
 * this a box set up in English shows 11/03/2026 for the 3rd of November to a Brazilian manager.
 */
export type ScreenLanguage = 'pt-BR' | 'es' | 'en';

export function chromiumLocale(language: ScreenLanguage): { tag: 'pt-BR' | 'es' | 'en-US'; posix: 'pt_BR' | 'es' | 'en_US' } {
  switch (language) {
    case 'pt-BR':
      return { tag: 'pt-BR', posix: 'pt_BR' };
    case 'es':
      return { tag: 'es', posix: 'es' };
    case 'en':
      return { tag: 'en-US', posix: 'en_US' };
  }
}
