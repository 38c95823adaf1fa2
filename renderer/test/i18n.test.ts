import { describe, expect, it } from 'vitest';
import { dictionaries, LANGS, t } from '../src/i18n.js';

const placeholders = (s: string): string[] => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '').sort();

describe('i18n', () => {
  it('pt-BR and en have the same keys, none empty', () => {
    const en = Object.keys(dictionaries.en).sort();
    const pt = Object.keys(dictionaries['pt-BR']).sort();
    expect(pt).toEqual(en);
    for (const lang of LANGS) for (const [k, v] of Object.entries(dictionaries[lang])) expect(v.trim(), `${lang} ${k}`).not.toBe('');
  });

  it('every translation fills the same placeholders as the English text', () => {
    for (const [key, text] of Object.entries(dictionaries.en)) {
      expect(placeholders(dictionaries['pt-BR'][key as keyof typeof dictionaries.en]), key).toEqual(placeholders(text));
    }
  });

  it('fills placeholders and formats numbers in the language', () => {
    expect(t('pt-BR', 'conn.offline', { n: 3 })).toBe('Sem conexão — 3 registros aguardando envio');
    expect(t('en', 'conn.offline', { n: 1200 })).toBe('No connection — 1,200 punches waiting to be sent');
    expect(t('pt-BR', 'conn.offline', { n: 1200 })).toBe('Sem conexão — 1.200 registros aguardando envio');
  });

  it('the idle prompt reads as the site expects in both languages', () => {
    expect(t('pt-BR', 'idle.prompt')).toBe('Aproxime seu crachá ou digite sua matrícula');
    expect(t('en', 'idle.prompt')).toBe('Scan your badge or type your ID');
  });
});
