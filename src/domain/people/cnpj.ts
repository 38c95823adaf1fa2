/**
 * CNPJ (Brazilian company taxpayer number): 14 characters, the last two check digits. Since July
 * 2026 the first twelve may be letters as well as digits (Receita Federal's alphanumeric CNPJ);
 * the check digits are computed the same way over each character's code minus 48, so an all-digit
 * CNPJ checks exactly as before.
 */

const WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

function checkDigit(chars: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (chars.charCodeAt(i) - 48) * (weights[i] as number);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** The 14 characters without the mask (12.345.678/0001-95), upper case; null when it is not one. */
export function normalizeCnpj(text: string): string | null {
  const bare = text.replace(/[./-]/g, '').toUpperCase();
  if (!/^[0-9A-Z]{12}\d{2}$/.test(bare) || /^(\d)\1{13}$/.test(bare)) return null;
  const d1 = checkDigit(bare, WEIGHTS_1);
  const d2 = checkDigit(bare.slice(0, 12) + d1, WEIGHTS_2);
  return bare.endsWith(`${d1}${d2}`) ? bare : null;
}

/** 12.345.678/0001-95 */
export function formatCnpj(cnpj: string): string {
  return `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
}
