import { describe, expect, it } from 'vitest';
import { readCpf } from '../../src/domain/people/cpf.js';
import { resolveCredential, type IdentityRules, type Lookups } from '../../src/domain/people/identity.js';

type E = { name: string };
const rules: IdentityRules = {
  order: ['badge', 'external_id', 'registration_number', 'cpf'],
  allowed: { badge: ['badge', 'external_id'], id: ['external_id', 'registration_number', 'cpf'] },
};

function lookups(data: {
  badge?: Record<string, E>;
  ext?: Record<string, E>;
  reg?: Record<string, E[]>;
  cpf?: Record<string, E[]>;
}) {
  const calls: string[] = [];
  const l: Lookups<E> = {
    badge: (c) => (calls.push(`badge:${c}`), data.badge?.[c] ?? null),
    external_id: (c) => (calls.push(`ext:${c}`), data.ext?.[c] ?? null),
    registration_number: (c) => (calls.push(`reg:${c}`), data.reg?.[c] ?? []),
    cpf: (d) => (calls.push(`cpf:${d}`), data.cpf?.[d] ?? []),
  };
  return { l, calls };
}

const ana = { name: 'Ana' };
const bia = { name: 'Bia' };

describe('resolveCredential', () => {
  it('tries the keys in the configured order, restricted to the input kind', () => {
    const { l, calls } = lookups({ ext: { X1: ana }, badge: { X1: bia } });
    expect(resolveCredential('X1', 'badge', rules, l)).toEqual({ kind: 'found', employee: bia, key: 'badge' });
    expect(resolveCredential('X1', 'id', rules, l)).toEqual({ kind: 'found', employee: ana, key: 'external_id' });
    expect(calls).toEqual(['badge:X1', 'ext:X1']); // the keypad never looked at badges
  });

  it('finds by CPF with or without mask, never by CPF from a badge reader', () => {
    const { l } = lookups({ cpf: { '52998224725': [ana] } });
    expect(resolveCredential('529.982.247-25', 'id', rules, l)).toMatchObject({ kind: 'found', key: 'cpf' });
    expect(resolveCredential('52998224725', 'id', rules, l)).toMatchObject({ kind: 'found', key: 'cpf' });
    expect(resolveCredential('52998224725', 'badge', rules, l)).toEqual({ kind: 'unknown' });
  });

  it('never looks up a CPF whose check digits are wrong, and says so', () => {
    const { l, calls } = lookups({ cpf: { '52998224724': [ana] } });
    expect(resolveCredential('529.982.247-24', 'id', rules, l)).toEqual({ kind: 'invalid_cpf' });
    expect(calls.some((c) => c.startsWith('cpf:'))).toBe(false);
  });

  it('an 11-digit code that another key knows is not refused as a bad CPF', () => {
    const { l } = lookups({ ext: { '12345678900': ana } });
    expect(resolveCredential('12345678900', 'id', rules, l)).toMatchObject({ kind: 'found', key: 'external_id' });
  });

  it('refuses to guess when a shared key matches two employees', () => {
    const { l } = lookups({ reg: { 'M-1': [ana, bia] } });
    expect(resolveCredential('M-1', 'id', rules, l)).toEqual({
      kind: 'ambiguous',
      key: 'registration_number',
      count: 2,
    });
  });

  it('readCpf: known valid and invalid numbers', () => {
    expect(readCpf('529.982.247-25')).toEqual({ kind: 'cpf', digits: '52998224725' });
    expect(readCpf('11111111111')).toEqual({ kind: 'invalid_cpf' });
    expect(readCpf('529.982.247-2')).toEqual({ kind: 'not_cpf' });
    expect(readCpf('5299822472')).toEqual({ kind: 'not_cpf' });
  });
});
