/** The languages the terminal speaks, and how a command line picks one from the locale. */
export type Lang = 'pt-BR' | 'es' | 'en';

/** In the order the screen's language button cycles through them. */
export const LANGS: readonly Lang[] = ['pt-BR', 'es', 'en'];

export function isLang(v: unknown): v is Lang {
  return v === 'pt-BR' || v === 'es' || v === 'en';
}

/**
 * The language of a POSIX locale (`LC_ALL`, `LC_MESSAGES`, `LANG` in that order, as gettext reads
 * them): pt_BR.UTF-8 → pt-BR, es_ES → es; anything else, C and POSIX included, is English.
 */
export function langOfLocale(env: Readonly<Record<string, string | undefined>>): Lang {
  const locale = [env['LC_ALL'], env['LC_MESSAGES'], env['LANG']].find((v) => v !== undefined && v !== '') ?? '';
  const tag = locale.toLowerCase();
  if (tag.startsWith('pt')) return 'pt-BR';
  if (tag.startsWith('es')) return 'es';
  return 'en';
}

/**
 * The other way, for Chromium's own locale (Electron's `--lang`, a browser's LANGUAGE): what the
 * page's date fields, `navigator.language` and Intl's defaults follow. The screen words its texts
 * itself; the admin panels' date fields are drawn by Chromium in its locale, so without this a box
 * set up in English shows 11/03/2026 for the 3rd of November to a Brazilian manager.
 */
export function chromiumLocale(lang: Lang): { tag: 'pt-BR' | 'es' | 'en-US'; posix: 'pt_BR' | 'es' | 'en_US' } {
  switch (lang) {
    case 'pt-BR':
      return { tag: 'pt-BR', posix: 'pt_BR' };
    case 'es':
      return { tag: 'es', posix: 'es' };
    case 'en':
      return { tag: 'en-US', posix: 'en_US' };
  }
}
