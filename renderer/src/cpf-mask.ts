/**
 * How a typed ID is shown on the keypad: an all-digit value of 9 to 11 digits is a CPF being typed
 * and is shown with its mask as it grows (123.456.789, 123.456.789-0, 123.456.789-09). The dots
 * and dash are for display only: the value sent stays the digits typed. Up to 8 digits (a
 * registration number), more than 11 (not a CPF) and anything with a non-digit are shown as typed.
 */

/** Longer than this, an all-digit ID is shown as a CPF. */
export const CPF_MASK_FROM = 9;
export const CPF_DIGITS = 11;

export function cpfDisplay(value: string): string {
  if (!/^[0-9]+$/.test(value) || value.length < CPF_MASK_FROM || value.length > CPF_DIGITS) return value;
  const dash = value.length > 9 ? `-${value.slice(9)}` : '';
  return `${value.slice(0, 3)}.${value.slice(3, 6)}.${value.slice(6, 9)}${dash}`;
}
