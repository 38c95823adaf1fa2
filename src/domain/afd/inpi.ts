/**
 * The REP-P's INPI registration (Portaria 671: the AFD header's field 190-206 and the file's name,
 * 17 digits N). INPI prints a computer program's registration as "BR 51 2026 000123-4" (BR, the
 * nature 51, the year, a sequence of six digits, a check digit), often written "BR512026000123-4"
 * or without its check digit. One rule for the configuration (start, doctor) and the export, so a
 * number the terminal accepts at start is never refused at export: spaces, dots, dashes and
 * slashes are dropped; a leading "BR" is dropped when twelve or thirteen digits follow it (the
 * printed form); what remains is the registration, 1 to 17 digits. The check digit is not computed
 * (INPI does not publish its rule): a mistyped number is caught by the employer, not here.
 */
export function normalizeInpiRegistration(text: string): string | null {
  const bare = text.trim().replace(/[\s./-]/g, '');
  const printed = /^BR(\d+)$/i.exec(bare);
  if (printed) return /^\d{12,13}$/.test(printed[1] as string) ? (printed[1] as string) : null;
  return /^\d{1,17}$/.test(bare) ? bare : null;
}

export const INPI_RULE =
  'the INPI registration, up to 17 digits, or as INPI prints it ("BR 51 2026 000123-4", BR and 12 or 13 digits); spaces, dots and dashes are ignored';
