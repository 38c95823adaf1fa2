/**
 * A punch's receipt as the screens show it: labelled rows in the screen's language, and the QR
 * code of its text. The screen makes the QR code, not the agent: drawing is the screen's job, and a
 * matrix costs 2-7 ms that would otherwise sit between a punch's commit and its answer. Pure.
 */
import { create as createQr } from 'qrcode';
import type { PunchReceiptView } from '../../src/contract.js';
import { formatShortLocalDate } from './format.js';
import { t, type Lang } from './i18n.js';

/** `key`: the row's data-testid suffix. */
export type ReceiptRow = { key: string; label: string; value: string };

/** How much of the hash a screen shows: enough to compare by eye; the QR code has all of it. */
export const HASH_SHOWN = 16;

export function receiptRows(r: PunchReceiptView, lang: Lang): ReceiptRow[] {
  const rows: Array<ReceiptRow | null> = [
    { key: 'nsr', label: t(lang, 'receipt.nsr'), value: r.nsr },
    {
      key: 'when',
      label: t(lang, 'receipt.when'),
      value: `${formatShortLocalDate(r.date, lang)} ${r.time} UTC${r.utcOffset}`,
    },
    correctedRow(r, lang),
    r.awaitingConfirmation
      ? { key: 'awaiting', label: t(lang, 'receipt.status'), value: t(lang, 'receipt.awaitingConfirmation') }
      : null,
    {
      key: 'employee',
      label: t(lang, 'receipt.employee'),
      value: r.employeeName ?? t(lang, r.punchKept ? 'receipt.noName' : 'receipt.nameGone'),
    },
    { key: 'cpf', label: t(lang, 'receipt.cpf'), value: r.cpf ?? t(lang, 'receipt.noCpf') },
    { key: 'terminal', label: t(lang, 'receipt.terminal'), value: r.terminalId },
    r.employer.name === null ? null : { key: 'employer', label: t(lang, 'receipt.employer'), value: r.employer.name },
    r.employer.cnpj === null
      ? null
      : { key: 'employer-cnpj', label: t(lang, 'receipt.employerCnpj'), value: r.employer.cnpj },
    r.employer.cpf === null
      ? null
      : { key: 'employer-cpf', label: t(lang, 'receipt.employerCpf'), value: r.employer.cpf },
    { key: 'hash', label: t(lang, 'receipt.hash'), value: `${r.hash.slice(0, HASH_SHOWN)}…` },
  ];
  return rows.filter((x): x is ReceiptRow => x !== null);
}

/** The right time when the terminal learnt the sealed one was wrong, or a time still to be confirmed. */
function correctedRow(r: PunchReceiptView, lang: Lang): ReceiptRow | null {
  const c = r.corrected;
  if (c) {
    const adj = c.adjustmentNsr ? ` (${t(lang, 'receipt.adjustment', { nsr: c.adjustmentNsr })})` : '';
    return {
      key: 'corrected',
      label: t(lang, 'receipt.corrected'),
      value: `${formatShortLocalDate(c.date, lang)} ${c.time} UTC${c.utcOffset}${adj}`,
    };
  }
  return r.timeToConfirm
    ? { key: 'time-to-confirm', label: t(lang, 'receipt.when'), value: t(lang, 'receipt.timeToConfirm') }
    : null;
}

/** A QR code's modules: `size` a side, `dark(row, col)`. */
export type QrModules = { size: number; dark(row: number, col: number): boolean };

/**
 * The QR code of the receipt's whole text (the agent's format, full hash included). Error correction M: 15% may be
 * unreadable.
 */
export function qrOf(text: string): QrModules {
  const { size, data } = createQr(text, { errorCorrectionLevel: 'M' }).modules;
  return { size, dark: (row, col) => data[row * size + col] === 1 };
}

/** Light modules around the code that readers need (the QR standard's quiet zone). */
export const QR_QUIET = 4;

/** Whole device pixels per module, so every module is the same size and sharp: at most `targetPx` a side. */
export function qrScale(size: number, targetPx: number): number {
  return Math.max(1, Math.floor(targetPx / (size + 2 * QR_QUIET)));
}
