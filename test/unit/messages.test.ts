import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminCodeSchema, afdErrorCodeSchema, punchRefusalSchema } from '../../src/contract.js';
import { dictionaries, LANGS, t, type Lang, type MessageKey, type Text } from '../../src/messages/catalogue.js';
import { langOfLocale } from '../../src/messages/lang.js';
import { consoleLine, punchText } from '../../src/messages/punch-text.js';

const forms = (text: Text): string[] =>
  typeof text === 'string'
    ? [text]
    : Object.entries(text)
        .filter(([k]) => k !== 'count')
        .map(([, v]) => v as string);
const placeholders = (text: Text): string[] =>
  [...new Set(forms(text).flatMap((s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '')))].sort();
const keys = Object.keys(dictionaries.en) as MessageKey[];

/** Every .ts file under `dir`, for finding which catalogue keys the code uses. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    // The tables themselves do not count as a use.
    if (d.isDirectory()) return ['en', 'es', 'pt-BR'].includes(d.name) && dir.endsWith('messages') ? [] : sources(p);
    return d.name.endsWith('.ts') ? [fs.readFileSync(p, 'utf8')] : [];
  });
}

describe('the message catalogue', () => {
  it('has every text in every language, none empty and none left in the key’s own words', () => {
    for (const lang of LANGS) {
      expect(Object.keys(dictionaries[lang]).sort(), lang).toEqual([...keys].sort());
      for (const k of keys)
        for (const form of forms(dictionaries[lang][k])) expect(form.trim(), `${lang} ${k}`).not.toBe('');
    }
  });

  it('fills the same placeholders in every language, in every plural form', () => {
    for (const lang of LANGS)
      for (const k of keys)
        expect(placeholders(dictionaries[lang][k]), `${lang} ${k}`).toEqual(placeholders(dictionaries.en[k]));
  });

  it('has a text for every code the agent answers with: admin answers, punch refusals, AFD errors', () => {
    const has = (k: string) => Object.prototype.hasOwnProperty.call(dictionaries.en, k);
    for (const code of adminCodeSchema.options) expect(has(`answer.${code}`), code).toBe(true);
    // The screen's short reason too, but for an enrollment, which the screen words by its answer's code.
    for (const reason of punchRefusalSchema.options)
      expect(has(`refusal.${reason}`) && (reason === 'enrollment' || has(`reason.${reason}`)), reason).toBe(true);
    for (const code of afdErrorCodeSchema.options) expect(has(`afd.error.${code}`), code).toBe(true);
  });

  it('has no text that nothing uses: every key is named in the code, or built from a prefix the code names', () => {
    const code = [...sources('src'), ...sources('renderer/src')].join('\n');
    const prefixes = [...code.matchAll(/`([a-zA-Z]+(?:\.[a-zA-Z]+)*\.)\$\{/g)].map((m) => m[1] ?? '');
    const unused = keys.filter((k) => !code.includes(`'${k}'`) && !prefixes.some((p) => k.startsWith(p)));
    expect(unused).toEqual([]);
    // The codes built from a prefix are exactly the contract's codes: no answer text for a code the agent never sends.
    const answerCodes = keys.filter((k) => k.startsWith('answer.')).map((k) => k.slice('answer.'.length));
    expect(answerCodes.sort()).toEqual([...adminCodeSchema.options].sort());
    const afdCodes = keys.filter((k) => k.startsWith('afd.error.')).map((k) => k.slice('afd.error.'.length));
    expect(afdCodes.sort()).toEqual([...afdErrorCodeSchema.options].sort());
  });

  it('chooses plural forms by the language’s rules, and formats the count in the language', () => {
    const said = (lang: Lang, n: number) => t(lang, 'refusal.pin_wrong_left', { n });
    expect(said('en', 1)).toBe('Wrong PIN (1 try left). Punch NOT registered.');
    expect(said('en', 2)).toBe('Wrong PIN (2 tries left). Punch NOT registered.');
    expect(said('pt-BR', 1)).toBe('PIN incorreto (resta 1 tentativa). Ponto NÃO registrado.');
    expect(said('pt-BR', 3)).toBe('PIN incorreto (restam 3 tentativas). Ponto NÃO registrado.');
    expect(said('es', 1)).toBe('PIN incorrecto (queda 1 intento). Registro NO realizado.');
    expect(said('es', 3)).toBe('PIN incorrecto (quedan 3 intentos). Registro NO realizado.');
    // Zero is a plural in all three, though CLDR files Portuguese 0 under "one".
    expect(t('pt-BR', 'queue.attempts', { n: 0 })).toBe('0 tentativas');
    expect(t('pt-BR', 'queue.attempts', { n: 1 })).toBe('1 tentativa');
    expect(t('es', 'queue.attempts', { n: 0 })).toBe('0 intentos');
    // A count carried as a string (admin answers' params are strings) chooses the same form.
    expect(t('en', 'refusal.pin_wrong_left', { n: '1' })).toContain('1 try left');
  });

  it('picks the command line’s language from the POSIX locale, English when it says nothing we speak', () => {
    expect(langOfLocale({ LANG: 'pt_BR.UTF-8' })).toBe('pt-BR');
    expect(langOfLocale({ LANG: 'en_US.UTF-8', LC_ALL: 'es_AR.UTF-8' })).toBe('es');
    expect(langOfLocale({ LANG: 'pt_BR.UTF-8', LC_MESSAGES: 'C' })).toBe('en');
    expect(langOfLocale({ LANG: '' })).toBe('en');
    expect(langOfLocale({})).toBe('en');
  });

  it('words a punch for the headless console with its NSR and entry or exit, and a refusal with its details', () => {
    const day = { direction: 'exit' as const, punches: [], serviceAt: null, hoursBank: null, leave: null };
    const ok = {
      ok: true as const,
      punchId: 7,
      nsr: 42,
      employeeName: 'Ana Paula',
      employeeExternalId: '1001',
      localDate: '2026-11-24',
      localTime: '12:01',
      repeat: false,
      day,
    };
    expect(consoleLine('en', ok)).toBe('registered Ana Paula 12:01 — NSR 000000042 — exit');
    expect(consoleLine('pt-BR', ok)).toBe('registrado Ana Paula 12:01 — NSR 000000042 — saída');
    expect(consoleLine('es', { ...ok, repeat: true })).toBe('ya registrado Ana Paula 12:01 — NSR 000000042');
    expect(punchText('en', { ok: false, reason: 'pin_locked', params: { until: '13:15' } })).toBe(
      'Too many wrong PINs: locked until 13:15. Ask the manager. Punch NOT registered.',
    );
    expect(consoleLine('pt-BR', { ok: false, reason: 'unknown_credential', params: { what: 'badge' } })).toBe(
      'recusado: Crachá não reconhecido. Ponto NÃO registrado.',
    );
  });
});

/** Every dotted key of the configuration file (api.baseUrl, api.dialect.siteFilterParam, …). */
function configKeys(schema: unknown, prefix = ''): string[] {
  let s = schema as {
    def?: { type?: string; innerType?: unknown; in?: unknown; shape?: Record<string, unknown> };
    shape?: Record<string, unknown>;
  };
  // Unwrap optional/default/nullable/pipe wrappers down to the object.
  for (let i = 0; i < 8 && s?.def && s.def.type !== 'object'; i++) s = (s.def.innerType ?? s.def.in) as typeof s;
  const shape = s?.def?.type === 'object' ? (s.shape ?? s.def.shape) : undefined;
  if (!shape) return [];
  return Object.entries(shape).flatMap(([k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    return [key, ...configKeys(v, key)];
  });
}

describe('the manager’s screen gets words, not configuration keys', () => {
  it('no text in any language names a key of the configuration file (doctor and the README do)', async () => {
    const { configSchema } = await import('../../src/config-schema.js');
    const dotted = configKeys(configSchema).filter((k) => k.includes('.'));
    // The walk must find the keys it guards against, or this test could never fail.
    expect(dotted).toEqual(expect.arrayContaining(['api.baseUrl', 'api.dialect.siteFilterParam', 'afd.signingKey']));
    const found: string[] = [];
    for (const lang of LANGS)
      for (const k of keys)
        for (const form of forms(dictionaries[lang][k]))
          for (const key of dotted)
            if (new RegExp(`\\b${key.replace(/\./g, '\\.')}\\b`).test(form)) found.push(`${lang} ${k}: ${key}`);
    expect(found).toEqual([]);
  });
});
