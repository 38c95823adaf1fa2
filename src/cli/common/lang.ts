/** The command line speaks the language of the POSIX locale (LC_ALL, LC_MESSAGES, LANG): pt_BR, es, else English. */
import { langOfLocale, type Lang } from '../../messages/lang.js';

export function cliLang(env: NodeJS.ProcessEnv = process.env): Lang {
  return langOfLocale(env);
}
