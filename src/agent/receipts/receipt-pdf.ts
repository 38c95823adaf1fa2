/**
 * The worker's PDF receipt of a punch (Portaria 671 Art. 80): the receipt's Art. 79 items, the
 * worker's CPF whole (it is their own copy), laid out by domain/documents/pdf-text.ts. Its detached CAdES
 * signature, when `afd.signingKey` is set, is made by receipt-files.ts.
 */
import type { PunchReceiptView } from '../../contract.js';
import { buildTextPdf, pdfDate, type PdfLine } from '../../domain/documents/pdf-text.js';
import { AWAITING_CONFIRMATION, correctionLine, RECEIPT_TITLE } from './receipt.js';

export function receiptPdf(r: PunchReceiptView): Buffer {
  const [y, m, d] = r.date.split('-');
  const row = (label: string, value: string | null | undefined): PdfLine | null =>
    value ? { text: `${label}: ${value}` } : null;
  const lines: (PdfLine | null)[] = [
    { text: RECEIPT_TITLE, bold: true, size: 13 },
    { text: `NSR ${r.nsr}`, bold: true, size: 12, gap: 8 },
    row('Data e hora', `${d}/${m}/${y} ${r.time} (UTC${r.utcOffset})`),
    // A time the terminal learnt later was wrong, or one not yet confirmed, is said under it (issue 26 item 1).
    ((c) => (c === null ? null : { text: c, bold: true }))(correctionLine(r)),
    r.awaitingConfirmation ? { text: AWAITING_CONFIRMATION, bold: true } : null,
    { text: 'Trabalhador', bold: true, gap: 8 },
    row('Nome', r.employeeName ?? (r.punchKept ? 'não identificado' : 'não disponível')),
    row('CPF', r.cpfFull ?? r.cpf ?? 'não cadastrado'),
    { text: 'Empregador', bold: true, gap: 8 },
    row('Nome', r.employer.name),
    row('CNPJ', r.employer.cnpj),
    row('CPF', r.employer.cpf),
    row('CNO/CAEPF', r.cno),
    row('Local de trabalho', r.workplace),
    { text: 'Registrador', bold: true, gap: 8 },
    row('REP-P, registro no INPI', r.repRegistration ?? 'não registrado'),
    row('Terminal', r.terminalId),
    { text: 'Código hash (SHA-256) do registro', bold: true, gap: 8 },
    { text: r.hash.slice(0, 32), size: 9 },
    { text: r.hash.slice(32), size: 9 },
    r.portalUrl ? { text: `Consulta: ${r.portalUrl}`, size: 8, gap: 8 } : null,
  ];
  return buildTextPdf({
    lines: lines.filter((l): l is PdfLine => l !== null),
    title: `${RECEIPT_TITLE} NSR ${r.nsr}`,
    creationDate: pdfDate(r.date, r.time, r.utcOffset),
  });
}
