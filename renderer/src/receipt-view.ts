/**
 * A punch's receipt as the screens show it: labelled rows in the screen's language and the QR
 * code's modules unpacked from the contract's compact form. Pure.
 */
import type { PunchReceiptView, QrMatrix } from '../../src/contract.js';
import { formatShortLocalDate } from './format.js';
import { t, type Lang } from './i18n.js';

/** `key`: the row's data-testid suffix. */
export type ReceiptRow = { key: string; label: string; value: string };

/** How much of the hash a screen shows: enough to compare by eye; the QR code has all of it. */
export const HASH_SHOWN = 16;

export function receiptRows(r: PunchReceiptView, lang: Lang): ReceiptRow[] {
  const rows: Array<ReceiptRow | null> = [
    { key: 'nsr', label: t(lang, 'receipt.nsr'), value: r.nsr },
    { key: 'when', label: t(lang, 'receipt.when'), value: `${formatShortLocalDate(r.date, lang)} ${r.time} UTC${r.utcOffset}` },
    { key: 'employee', label: t(lang, 'receipt.employee'), value: r.employeeName ?? t(lang, r.punchKept ? 'receipt.noName' : 'receipt.nameGone') },
    { key: 'cpf', label: t(lang, 'receipt.cpf'), value: r.cpf ?? t(lang, 'receipt.noCpf') },
    { key: 'terminal', label: t(lang, 'receipt.terminal'), value: r.terminalId },
    r.employer.name === null ? null : { key: 'employer', label: t(lang, 'receipt.employer'), value: r.employer.name },
    r.employer.cnpj === null ? null : { key: 'employer-cnpj', label: t(lang, 'receipt.employerCnpj'), value: r.employer.cnpj },
    r.employer.cpf === null ? null : { key: 'employer-cpf', label: t(lang, 'receipt.employerCpf'), value: r.employer.cpf },
    { key: 'hash', label: t(lang, 'receipt.hash'), value: `${r.hash.slice(0, HASH_SHOWN)}…` },
  ];
  return rows.filter((x): x is ReceiptRow => x !== null);
}

/** Whether the module at (row, col) is dark (contract `qrMatrixSchema`: hex, four modules a digit, high bit first). */
export function qrDark(qr: QrMatrix, row: number, col: number): boolean {
  const i = row * qr.size + col;
  const digit = Number.parseInt(qr.modules[i >> 2] ?? '0', 16);
  return ((digit >> (3 - (i & 3))) & 1) === 1;
}

/** Light modules around the code that readers need (the QR standard's quiet zone). */
export const QR_QUIET = 4;

/** Whole device pixels per module, so every module is the same size and sharp: at most `targetPx` a side. */
export function qrScale(size: number, targetPx: number): number {
  return Math.max(1, Math.floor(targetPx / (size + 2 * QR_QUIET)));
}
