/**
 * The one catalogue of what the terminal says, keyed by code, in pt-BR, es and en (DOM-free: the
 * screen, the headless console and the command line word everything from it). `en` is the typed
 * source of keys; the other languages must have exactly the same keys (the compiler checks) and
 * the same {placeholders} (test/unit/messages.test.ts checks).
 */
import type { AdminCode, AdminParams } from '../contract/admin-codes.js';
import { enAdmin } from './en/admin.js';
import { enAfd } from './en/afd.js';
import { enAnswers } from './en/answers.js';
import { enAudit } from './en/audit.js';
import { enDay } from './en/day.js';
import { enFleet } from './en/fleet.js';
import { enPunch } from './en/punch.js';
import { enPunches } from './en/punches.js';
import { enKiosk } from './en/kiosk.js';
import { enReceipt } from './en/receipt.js';
import { enRoster } from './en/roster.js';
import { enService } from './en/service.js';
import { enStatus } from './en/status.js';
import { enPinHelp } from './en/pin-help.js';
import { enPhoto } from './en/photo.js';
import { enPresence } from './en/presence.js';
import { esAdmin } from './es/admin.js';
import { esAfd } from './es/afd.js';
import { esAnswers } from './es/answers.js';
import { esAudit } from './es/audit.js';
import { esDay } from './es/day.js';
import { esFleet } from './es/fleet.js';
import { esPunch } from './es/punch.js';
import { esPunches } from './es/punches.js';
import { esKiosk } from './es/kiosk.js';
import { esReceipt } from './es/receipt.js';
import { esRoster } from './es/roster.js';
import { esService } from './es/service.js';
import { esStatus } from './es/status.js';
import { esPinHelp } from './es/pin-help.js';
import { esPhoto } from './es/photo.js';
import { esPresence } from './es/presence.js';
import type { Lang } from './lang.js';
import { ptAdmin } from './pt-BR/admin.js';
import { ptAfd } from './pt-BR/afd.js';
import { ptAnswers } from './pt-BR/answers.js';
import { ptAudit } from './pt-BR/audit.js';
import { ptDay } from './pt-BR/day.js';
import { ptFleet } from './pt-BR/fleet.js';
import { ptPunch } from './pt-BR/punch.js';
import { ptPunches } from './pt-BR/punches.js';
import { ptKiosk } from './pt-BR/kiosk.js';
import { ptReceipt } from './pt-BR/receipt.js';
import { ptRoster } from './pt-BR/roster.js';
import { ptService } from './pt-BR/service.js';
import { ptStatus } from './pt-BR/status.js';
import { ptPinHelp } from './pt-BR/pin-help.js';
import { ptPhoto } from './pt-BR/photo.js';
import { ptPresence } from './pt-BR/presence.js';
import type { PluralText, Text, Texts } from './text.js';

export { LANGS, isLang, langOfLocale, type Lang } from './lang.js';
export type { PluralText, Text } from './text.js';

const en = {
  ...enAnswers,
  ...enKiosk,
  ...enAdmin,
  ...enRoster,
  ...enReceipt,
  ...enAfd,
  ...enAudit,
  ...enPunch,
  ...enPunches,
  ...enDay,
  ...enFleet,
  ...enService,
  ...enStatus,
  ...enPinHelp,
  ...enPhoto,
  ...enPresence,
};

export type MessageKey = keyof typeof en;
export type Dictionary = Texts<typeof en>;

export const dictionaries: { readonly [L in Lang]: Dictionary } = {
  en,
  'pt-BR': {
    ...ptAnswers,
    ...ptKiosk,
    ...ptAdmin,
    ...ptRoster,
    ...ptReceipt,
    ...ptAfd,
    ...ptAudit,
    ...ptPunch,
    ...ptPunches,
    ...ptDay,
    ...ptFleet,
    ...ptService,
    ...ptStatus,
    ...ptPinHelp,
    ...ptPhoto,
    ...ptPresence,
  },
  es: {
    ...esAnswers,
    ...esKiosk,
    ...esAdmin,
    ...esRoster,
    ...esReceipt,
    ...esAfd,
    ...esAudit,
    ...esPunch,
    ...esPunches,
    ...esDay,
    ...esFleet,
    ...esService,
    ...esStatus,
    ...esPinHelp,
    ...esPhoto,
    ...esPresence,
  },
};

export type Params = Readonly<Record<string, string | number>>;

const pluralRules = new Map<Lang, Intl.PluralRules>();
function pluralRulesOf(lang: Lang): Intl.PluralRules {
  let rules = pluralRules.get(lang);
  if (rules === undefined) pluralRules.set(lang, (rules = new Intl.PluralRules(lang)));
  return rules;
}

/** The form of `text` for its count param (a number, or a string of digits as admin answers carry them). */
export function formOf(lang: Lang, text: Text, params: Params): string {
  if (typeof text === 'string') return text;
  const raw = params[text.count ?? 'n'];
  const n = typeof raw === 'number' ? raw : raw !== undefined && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(n)) return text.other;
  // Zero reads as a plural in all three ("0 tentativas", "0 intentos", "0 attempts"), though CLDR
  // files pt's 0 under "one"; a text may still give its own `zero` form (e.g. "none yet").
  const category =
    n === 0
      ? text.zero !== undefined
        ? 'zero'
        : 'other'
      : (pluralRulesOf(lang).select(n) as keyof Omit<PluralText, 'count'>);
  return text[category] ?? text.other;
}

/** The text for `key` in `lang`, in the plural form its count asks for, with {placeholders} filled in. */
export function t(lang: Lang, key: MessageKey, params: Params = {}): string {
  return formOf(lang, dictionaries[lang][key], params).replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = params[name];
    return v === undefined ? whole : typeof v === 'number' ? new Intl.NumberFormat(lang).format(v) : v;
  });
}

/** An answer of the agent: what happened as a code, and the details its text is filled with. */
export type CodedAnswer = { readonly code: AdminCode; readonly params?: Readonly<AdminParams> | undefined };

/**
 * The text of an admin call's answer in `lang`: the `answer.<code>` text filled with its params. A
 * `store` param (where the token is kept) is worded as the settings panel words it.
 */
export function answerText(lang: Lang, a: CodedAnswer): string {
  const params: Record<string, string> = { ...a.params };
  const store = params['store'];
  if (store === 'keyring' || store === 'file' || store === 'config')
    params['store'] = t(lang, `settings.source.${store}`);
  return t(lang, `answer.${a.code}`, params);
}
