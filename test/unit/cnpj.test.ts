import { describe, expect, it } from 'vitest';
import { formatCnpj, normalizeCnpj } from '../../src/domain/people/cnpj.js';
import { configSchema } from '../../src/config.js';

describe('CNPJ', () => {
  it('accepts a numeric CNPJ with or without its mask, and refuses a wrong check digit', () => {
    expect(normalizeCnpj('11.222.333/0001-81')).toBe('11222333000181');
    expect(normalizeCnpj('11222333000181')).toBe('11222333000181');
    expect(normalizeCnpj('11.222.333/0001-82')).toBeNull();
    expect(normalizeCnpj('00000000000000')).toBeNull();
    expect(normalizeCnpj('1122233300018')).toBeNull();
  });

  it("accepts the alphanumeric CNPJ (Receita Federal's example 12.ABC.345/01DE-35), letters in either case", () => {
    expect(normalizeCnpj('12.ABC.345/01DE-35')).toBe('12ABC34501DE35');
    expect(normalizeCnpj('12abc34501de35')).toBe('12ABC34501DE35');
    expect(normalizeCnpj('12.ABC.345/01DE-36')).toBeNull();
    expect(formatCnpj('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
  });
});

describe('employer configuration', () => {
  const base = { dataDir: '/tmp/x' };
  it('keeps a CNPJ without its mask and names a wrong one', () => {
    expect(
      configSchema.parse({ ...base, employer: { name: 'Obra Exemplo LTDA', cnpj: '11.222.333/0001-81' } }).employer
        .cnpj,
    ).toBe('11222333000181');
    const bad = configSchema.safeParse({ ...base, employer: { cnpj: '11.222.333/0001-80' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['employer', 'cnpj']);
    expect(bad.error?.issues[0]?.message).toMatch(/not a valid CNPJ/);
  });

  it('takes a person as employer by CPF, but not a CPF and a CNPJ together', () => {
    expect(configSchema.parse({ ...base, employer: { cpf: '529.982.247-25' } }).employer.cpf).toBe('52998224725');
    expect(configSchema.safeParse({ ...base, employer: { cpf: '52998224725', cnpj: '11222333000181' } }).success).toBe(
      false,
    );
    expect(configSchema.safeParse({ ...base, employer: { cpf: '52998224726' } }).success).toBe(false);
  });

  it('defaults: no employer data, no portal link, unsigned AFD, the journal checked daily', () => {
    const c = configSchema.parse(base);
    expect(c.employer).toEqual({});
    expect(c.receipt).toEqual({ keepHours: 48 });
    expect(c.afd).toEqual({});
    expect(c.journal.verifyEveryMs).toBe(24 * 3_600_000);
  });
});
