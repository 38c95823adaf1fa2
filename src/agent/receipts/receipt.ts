/**
 * The worker's receipt of a punch ("Comprovante de Registro de Ponto do Trabalhador", Portaria 671
 * Art. 79 and 80): built from the evidence journal's type 7 line, the punch as captured, the
 * employer the mark was sealed for and the configuration. `text` is the worker's own copy (the CPF
 * whole); the screen shows `cpf` masked. The QR code carries `qrText`: with `receipt.portalUrl`,
 * the link `<portal>?nsr=<NSR>&sha256=<hash>` (a small code a phone reads at a metre); else the text.
 * The PDF of the same receipt: receipt-pdf.ts.
 *
 * The text (UTF-8, lines joined by "\n", no line break at the end; a line in [] only when known):
 *
 *   Comprovante de Registro de Ponto do Trabalhador
 *   NSR: 000000042
 *   Data: 14/03/2026 07:58:31 UTC-03:00
 *   Trabalhador: Ana Paula Ferreira da Silva        ("não identificado": a code no roster knew;
 *                                                    "não disponível": retention deleted the punch, the mark is kept)
 *   CPF: 123.456.789-09                             ("não cadastrado": no CPF known)
 *   [Empregador: Construtora Exemplo Ltda]          the worker's employer (issue 26), else employer.name
 *   [CNPJ: 12.345.678/0001-95]                      its CNPJ, or instead
 *   [CPF do empregador: 123.456.789-09]             its CPF
 *   [CNO/CAEPF: 12345678901234]                     employer.cno
 *   [Local de trabalho: Obra Centro — São Paulo]    receipt.workplace, else the site's name from the service
 *   [REP-P (registro INPI): 5120230012345]          employer.repRegistration
 *   Terminal: obra-centro-01
 *   SHA-256: <the record's 64 hex digits, as in the AFD>
 *   [Portal: https://…]                             receipt.portalUrl
 *
 * Names of any length (issue 23): the text holds at most RECEIPT_QR_MAX_BYTES, so in it the
 * worker's name is cut at QR_EMPLOYEE_NAME_MAX characters and the employer's at QR_EMPLOYER_NAME_MAX
 * (the AFD header's width), each ending in "…" when cut; the portal line is left out when the text
 * would not fit with it (a link cut short would lead nowhere). The receipt's own fields keep the
 * names whole: the screen shortens them for display, the journal and the AFD identify the punch.
 */
import { RECEIPT_QR_MAX_BYTES, type PunchReceiptView } from '../../contract.js';
import { parseMark } from '../../domain/afd/mark.js';
import { formatCnpj } from '../../domain/people/cnpj.js';
import { utcOffsetMinutes } from '../../domain/time/local-time.js';
import { cutText, utf8Length } from '../../domain/people/long-text.js';

/** Art. 79's title, word for word. */
export const RECEIPT_TITLE = 'Comprovante de Registro de Ponto do Trabalhador';

/** The worker's name in the QR text: longer than any real name, short enough for a phone to read the code. */
export const QR_EMPLOYEE_NAME_MAX = 120;
/** The employer's name in the QR text: as wide as the AFD header's field. */
export const QR_EMPLOYER_NAME_MAX = 150;

/** The punch behind a mark, as captured (null: the punch row is gone, e.g. deleted by retention). */
export type ReceiptPunch = {
  /** UTC ms of the capture, with its seconds. */
  capturedAt: number;
  /** The zone its local time was computed in; null: not known (a code no roster knew), the line's offset is used. */
  timeZone: string | null;
  /** Null: a code no roster knew at capture. */
  employeeName: string | null;
  /**
   * The punch's local date and time now (re-timed when the terminal learnt its clock or zone was wrong); absent: as
   * sealed.
   */
  localDate?: string;
  localTime?: string;
  /** False: timed by the terminal's clock, not yet confirmed by the service. */
  anchored?: boolean;
  /** Held until a manager confirms who punched (the PIN was not verified: forgotten, or locked out). */
  awaitingConfirmation?: boolean;
};

/**
 * What the journal says of a correction: the type 4 record's NSR, and (punch row gone) the minute the 'reanchored' fact
 * moved it to.
 */
export type ReceiptCorrection = { adjustmentNsr: number | null; movedTo: { date: string; time: string } | null };

export type ReceiptSettings = {
  terminalId: string;
  employer: { name?: string | undefined; cnpj?: string | undefined; cpf?: string | undefined };
  portalUrl?: string | undefined;
  /** The configured CNO or CAEPF (employer.cno). */
  cno?: string | undefined;
  /** The REP-P's INPI registration (employer.repRegistration). */
  repRegistration?: string | undefined;
  /** The place of work: `receipt.workplace`, else the site's name as the service gave it. */
  workplace?: string | undefined;
  /** The employer a mark's chain names (agent/roster/employers.ts); absent or null: the configured one. */
  employerOf?: (chain: string) => { name: string | null; kind: 'cnpj' | 'cpf'; id: string } | null;
};

/** The QR link of a receipt on the portal: the NSR and the record's hash, which the portal looks the receipt up by. */
export function portalLink(portalUrl: string, nsr: string, hash: string): string {
  return `${portalUrl}${portalUrl.includes('?') ? '&' : '?'}nsr=${nsr}&sha256=${hash}`;
}

/** ***.456.789-**: enough for the worker to recognise, not enough to use (LGPD). */
export function maskCpf(cpf: string): string {
  return `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`;
}

/** 123.456.789-09 (an employer's CPF is shown whole: it identifies the employer, as a CNPJ does). */
export function formatCpf(cpf: string): string {
  return `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
}

/** ±HH:MM from an offset in minutes. */
function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

type When = { date: string; time: string; utcOffset: string };

/**
 * The local date and time WITH SECONDS: the AFD line keeps the minute only (its seconds are fixed at
 * 00), so they come from the captured instant in the punch's zone. When that instant does not fall
 * in the line's minute (a punch recomputed after capture, or none to read), the sealed line is what
 * counts: its own date, minute and offset, seconds 00.
 */
function whenOf(markedAt: string, punch: ReceiptPunch | null): When {
  const fromLine: When = {
    date: markedAt.slice(0, 10),
    time: markedAt.slice(11, 19),
    utcOffset: `${markedAt.slice(19, 22)}:${markedAt.slice(22, 24)}`,
  };
  if (!punch) return fromLine;
  const lineOffset =
    (markedAt[19] === '-' ? -1 : 1) * (Number(markedAt.slice(20, 22)) * 60 + Number(markedAt.slice(22, 24)));
  const offset = punch.timeZone === null ? lineOffset : utcOffsetMinutes(punch.capturedAt, punch.timeZone);
  // The zone's offset is whole minutes, so shifting the instant by it gives the wall clock in UTC fields.
  const iso = new Date(punch.capturedAt + offset * 60_000).toISOString();
  const fromInstant: When = { date: iso.slice(0, 10), time: iso.slice(11, 19), utcOffset: offsetText(offset) };
  const sameMinute =
    fromInstant.date === fromLine.date &&
    fromInstant.time.slice(0, 5) === fromLine.time.slice(0, 5) &&
    fromInstant.utcOffset === fromLine.utcOffset;
  return sameMinute ? fromInstant : fromLine;
}

type Corrected = NonNullable<PunchReceiptView['corrected']>;

/**
 * The right time when it is not the sealed one: the punch row's local time in its zone (what the
 * service received), or, once retention let the row go, the minute a 'reanchored' fact names.
 */
function correctedOf(markedAt: string, punch: ReceiptPunch | null, c: ReceiptCorrection | null): Corrected | null {
  const adjustmentNsr = c?.adjustmentNsr == null ? null : String(c.adjustmentNsr).padStart(9, '0');
  const lineOffset = `${markedAt.slice(19, 22)}:${markedAt.slice(22, 24)}`;
  if (punch?.localDate !== undefined && punch.localTime !== undefined && punch.timeZone !== null) {
    const offset = utcOffsetMinutes(punch.capturedAt, punch.timeZone);
    if (
      punch.localDate === markedAt.slice(0, 10) &&
      punch.localTime === markedAt.slice(11, 16) &&
      offsetText(offset) === lineOffset
    )
      return null;
    const iso = new Date(punch.capturedAt + offset * 60_000).toISOString();
    const seconds = iso.slice(11, 16) === punch.localTime ? iso.slice(16, 19) : ':00';
    return {
      date: punch.localDate,
      time: `${punch.localTime}${seconds}`,
      utcOffset: offsetText(offset),
      adjustmentNsr,
    };
  }
  if (punch === null && c?.movedTo)
    return { date: c.movedTo.date, time: `${c.movedTo.time}:00`, utcOffset: lineOffset, adjustmentNsr };
  return null;
}

/** The QR and PDF line of a punch held until a manager confirms who punched (issue 29 item 6). */
export const AWAITING_CONFIRMATION = 'Aguardando confirmação do gestor: PIN não verificado';

/** The QR line (and the PDF's) of a correction, or of a time not confirmed yet. */
export function correctionLine(r: Pick<PunchReceiptView, 'corrected' | 'timeToConfirm'>): string | null {
  const c = r.corrected;
  if (c) {
    const [y, m, d] = c.date.split('-');
    return `Horário corrigido: ${d}/${m}/${y} ${c.time} UTC${c.utcOffset}${c.adjustmentNsr ? ` (ajuste do relógio, NSR ${c.adjustmentNsr})` : ''}`;
  }
  return r.timeToConfirm ? 'Horário a confirmar: relógio do terminal ainda não conferido com o serviço' : null;
}

/** A value on one line of the QR text: a line break in a name must not start a line of its own. */
const oneLine = (s: string): string => s.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();

/** The receipt's lines, exactly as the QR code carries them (the format and the cuts are at the top of this file). */
export function receiptText(r: Omit<PunchReceiptView, 'text' | 'qrText'>): string {
  const [y, m, d] = r.date.split('-');
  const lines = [
    RECEIPT_TITLE,
    `NSR: ${r.nsr}`,
    `Data: ${d}/${m}/${y} ${r.time} UTC${r.utcOffset}`,
    correctionLine(r),
    r.awaitingConfirmation ? AWAITING_CONFIRMATION : null,
    `Trabalhador: ${r.employeeName === null ? (r.punchKept ? 'não identificado' : 'não disponível') : cutText(r.employeeName, QR_EMPLOYEE_NAME_MAX)}`,
    // The worker's own copy carries the whole CPF (the screen shows `cpf`, masked).
    `CPF: ${r.cpfFull ?? r.cpf ?? 'não cadastrado'}`,
    r.employer.name === null ? null : `Empregador: ${cutText(r.employer.name, QR_EMPLOYER_NAME_MAX)}`,
    r.employer.cnpj === null ? null : `CNPJ: ${r.employer.cnpj}`,
    r.employer.cpf === null ? null : `CPF do empregador: ${r.employer.cpf}`,
    r.cno ? `CNO/CAEPF: ${r.cno}` : null,
    r.workplace ? `Local de trabalho: ${cutText(r.workplace, QR_EMPLOYER_NAME_MAX)}` : null,
    r.repRegistration ? `REP-P (registro INPI): ${r.repRegistration}` : null,
    // The configuration keeps it to 63 characters; cut as the names are, should that ever change.
    `Terminal: ${cutText(r.terminalId, QR_EMPLOYEE_NAME_MAX)}`,
    `SHA-256: ${r.hash}`,
  ];
  const text = lines.filter((l): l is string => l !== null).join('\n');
  const withPortal = r.portalUrl === null ? text : `${text}\nPortal: ${r.portalUrl}`;
  return utf8Length(withPortal) <= RECEIPT_QR_MAX_BYTES ? withPortal : text;
}

/**
 * The receipt of the mark `line` (a type 7 record, of employer chain `chain`, with what the journal says of its
 * correction); throws RangeError when the line is not one.
 */
export function buildReceipt(
  line: string,
  punch: ReceiptPunch | null,
  settings: ReceiptSettings,
  chain = '',
  correction: ReceiptCorrection | null = null,
): PunchReceiptView {
  const parsed = parseMark(line);
  if (!parsed.ok) throw new RangeError(`not a type 7 record: ${parsed.problem}`);
  const mark = parsed.mark;
  const rawName = punch?.employeeName ?? null;
  const name = rawName === null ? null : oneLine(rawName);
  // The worker's own employer when the mark was sealed for one (issue 26), else the configured one.
  const own = chain === '' ? null : (settings.employerOf?.(chain) ?? null);
  const configured = own === null;
  const rawEmployerName = configured ? settings.employer.name : (own.name ?? undefined);
  const employerName = rawEmployerName === undefined ? null : oneLine(rawEmployerName);
  const employerCnpj = configured ? settings.employer.cnpj : own.kind === 'cnpj' ? own.id : undefined;
  const employerCpf = configured ? settings.employer.cpf : own.kind === 'cpf' ? own.id : undefined;
  const fields = {
    nsr: line.slice(0, 9),
    ...whenOf(mark.markedAt, punch),
    employeeName: name === '' ? null : name,
    punchKept: punch !== null,
    cpf: mark.cpf === null ? null : maskCpf(mark.cpf),
    terminalId: oneLine(settings.terminalId),
    employer: {
      name: employerName === '' ? null : employerName,
      // The config validated both (config-evidence.ts); a CNPJ and a CPF together are refused there.
      cnpj: employerCnpj === undefined ? null : formatCnpj(employerCnpj),
      cpf: employerCpf === undefined ? null : formatCpf(employerCpf),
    },
    hash: mark.hash,
    portalUrl: settings.portalUrl === undefined ? null : oneLine(settings.portalUrl),
    corrected: correctedOf(mark.markedAt, punch, correction),
    ...(punch?.anchored === false ? { timeToConfirm: true } : {}),
    ...(punch?.awaitingConfirmation ? { awaitingConfirmation: true } : {}),
    cpfFull: mark.cpf === null ? null : formatCpf(mark.cpf),
    // The CNO/CAEPF is the configured site's registration: a subcontractor's receipt names it too (the place).
    cno: settings.cno ?? null,
    repRegistration: settings.repRegistration ?? null,
    workplace:
      settings.workplace === undefined || oneLine(settings.workplace) === '' ? null : oneLine(settings.workplace),
  };
  const text = receiptText(fields);
  // With a portal, the QR code carries only the link (a small code a phone reads at a metre); else the whole text.
  const link = fields.portalUrl === null ? null : portalLink(fields.portalUrl, fields.nsr, fields.hash);
  const qrText = link !== null && utf8Length(link) <= RECEIPT_QR_MAX_BYTES ? link : text;
  return { ...fields, text, qrText };
}
