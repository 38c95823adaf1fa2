import { describe, expect, it } from 'vitest';
import { cpfDisplay } from '../src/cpf-mask.js';
import { displayedId, idTitle } from '../src/keypad-field.js';

const DIGITS = '12345678909876';
/** What the field shows after each digit of a CPF (and beyond, where it is no CPF any more). */
const EXPECTED = [
  '',
  '1',
  '12',
  '123',
  '1234',
  '12345',
  '123456',
  '1234567',
  '12345678',
  '123.456.789',
  '123.456.789-0',
  '123.456.789-09',
  '123456789098',
  '1234567890987',
  '12345678909876',
];

describe('the CPF display mask', () => {
  it('masks an all-digit ID of 9 to 11 digits as it is typed; up to 8 and beyond 11 digits as typed', () => {
    for (let n = 0; n <= 14; n += 1) expect(cpfDisplay(DIGITS.slice(0, n)), `${n} digits`).toBe(EXPECTED[n]);
  });

  it('is for display only: the digits are all still there, in order', () => {
    for (let n = 0; n <= 14; n += 1)
      expect(cpfDisplay(DIGITS.slice(0, n)).replace(/[.-]/g, '')).toBe(DIGITS.slice(0, n));
  });

  it('leaves anything with a non-digit untouched', () => {
    for (const v of [
      '123.456.789-09',
      '12345678A09',
      'AB1234567',
      '123456789-0',
      ' 12345678909',
      '1234/5678-90',
      '•••••••••••',
    ])
      expect(cpfDisplay(v)).toBe(v);
  });

  it('masks only where a CPF may be typed', () => {
    expect(displayedId('12345678909', ['external_id', 'registration_number'])).toBe('12345678909');
    expect(displayedId('12345678909', ['cpf'])).toBe('123.456.789-09');
    expect(displayedId('12345678909', undefined)).toBe('123.456.789-09');
  });
});

describe('the keypad title', () => {
  it('says what may be typed, from the terminal’s allowed ID kinds', () => {
    expect(idTitle(['external_id', 'registration_number', 'cpf'], 'pt-BR')).toBe('Digite sua matrícula ou CPF');
    expect(idTitle(['external_id', 'registration_number', 'cpf'], 'es')).toBe('Ingrese su matrícula o CPF');
    expect(idTitle(['external_id', 'registration_number', 'cpf'], 'en')).toBe('Type your ID or CPF');
    expect(idTitle(undefined, 'pt-BR')).toBe('Digite sua matrícula ou CPF');
    expect(idTitle(['external_id', 'registration_number'], 'pt-BR')).toBe('Digite sua matrícula');
    expect(idTitle(['external_id'], 'en')).toBe('Type your ID');
    expect(idTitle(['cpf'], 'es')).toBe('Ingrese su CPF');
  });
});
