/**
 * CPF (Brazilian individual taxpayer number): 11 digits, the last two check digits. People type
 * it with or without the mask (123.456.789-09); a wrong check digit is a typo, refused before any
 * lookup so a mistyped CPF can never land on somebody else's record.
 */

/** CPF check digit over the first `len` digits of `ds` (weights len+1 down to 2). */
export function cpfCheck(ds: readonly number[], len: number): number {
  let sum = 0;
  for (let i = 0; i < len; i++) sum += (ds[i] as number) * (len + 1 - i);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** Appends the two CPF check digits to nine base digits. */
export function cpfFromBase(base: string): string {
  if (!/^\d{9}$/.test(base)) throw new RangeError(`cpf base must be 9 digits: ${base}`);
  const ds = Array.from(base, Number);
  const d1 = cpfCheck(ds, 9);
  ds.push(d1);
  return `${base}${d1}${cpfCheck(ds, 10)}`;
}

/** True when `cpf` is 11 digits, not all equal, with correct check digits. */
export function isValidCpf(cpf: string): boolean {
  return /^\d{11}$/.test(cpf) && !/^(\d)\1{10}$/.test(cpf) && cpfFromBase(cpf.slice(0, 9)) === cpf;
}

export type CpfReading = { kind: 'cpf'; digits: string } | { kind: 'invalid_cpf' } | { kind: 'not_cpf' };

/** Reads a typed code as a CPF: masked (000.000.000-00) or 11 bare digits. */
export function readCpf(code: string): CpfReading {
  const masked = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(code);
  if (!masked && !/^\d{11}$/.test(code)) return { kind: 'not_cpf' };
  const digits = code.replace(/\D/g, '');
  return isValidCpf(digits) ? { kind: 'cpf', digits } : { kind: 'invalid_cpf' };
}
