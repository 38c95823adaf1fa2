/**
 * A roll call's record at its end (issue 30 item 3): a CSV and a printable PDF, kept beside the
 * day's evidence in the data directory (`roll-calls/<date>/`), written by the terminal that ended it
 * and by every terminal that learns of its end (each keeps its own copy of what it saw).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RollCallView } from '../../contract.js';
import { localDateTime } from '../../domain/time/local-time.js';
import { buildPagedPdf } from '../../domain/documents/pdf-pages.js';
import type { PdfLine } from '../../domain/documents/pdf-text.js';

export const ROLL_CALLS_DIR = 'roll-calls';

const csvCell = (v: string | number | null): string => {
  const s = v === null ? '' : String(v);
  // A cell that a spreadsheet would run as a formula is quoted as text.
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
  return /[",\n\r;]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

function when(at: number | null, zone: string): string {
  if (at === null) return '';
  const l = localDateTime(at, zone);
  return `${l.date} ${l.time}`;
}

export function rollCallCsv(r: RollCallView, zone: string): string {
  const head = ['employee_external_id', 'name', 'employer', 'gate', 'status', 'marked_at', 'how', 'terminal'];
  const rows = r.people.map((p) =>
    [
      p.employee_external_id,
      p.name,
      p.employer,
      p.gate,
      p.safe ? 'safe' : 'missing',
      when(p.markedAt, zone),
      p.how,
      p.terminal,
    ]
      .map(csvCell)
      .join(','),
  );
  return `${head.join(',')}\n${rows.join('\n')}${rows.length ? '\n' : ''}`;
}

export function rollCallPdf(r: RollCallView, zone: string, site: string): Buffer {
  const started = localDateTime(r.startedAt, zone);
  const lines: PdfLine[] = [
    { text: 'Chamada de evacuação', bold: true, size: 14 },
    { text: `Local: ${site}` },
    {
      text: `Início: ${when(r.startedAt, zone)} (terminal ${r.startedBy})  Fim: ${when(r.endedAt, zone) || 'em andamento'}`,
    },
    {
      text: `Na lista: ${r.counts.listed}   Seguros: ${r.counts.safe}   Ausentes: ${r.counts.missing}`,
      bold: true,
      gap: 6,
    },
    ...(r.cutOff
      ? [{ text: 'Este terminal estava sem contato com os outros: marcas feitas neles podem faltar.', bold: true }]
      : []),
    { text: 'Ausentes', bold: true, gap: 10 },
    ...r.people
      .filter((p) => !p.safe)
      .map((p) => ({
        text: `${p.employee_external_id ?? p.employeeKey}  ${p.name ?? ''}  ${p.employer ?? ''}  portão ${p.gate}`,
      })),
    { text: 'Seguros', bold: true, gap: 10 },
    ...r.people
      .filter((p) => p.safe)
      .map((p) => ({
        text: `${p.employee_external_id ?? p.employeeKey}  ${p.name ?? ''}  ${when(p.markedAt, zone)} ${p.how === 'badge' ? 'crachá' : 'toque'} ${p.terminal ?? ''}`,
      })),
  ];
  return buildPagedPdf({
    lines,
    title: `Chamada ${r.id}`,
    creationDate: `D:${started.date.replace(/-/g, '')}${started.time.replace(':', '')}00`,
  });
}

/** Writes both files (atomically: a temporary name, then a rename); their paths. */
export function writeRollCallFiles(
  dataDir: string,
  r: RollCallView,
  zone: string,
  site: string,
): { csv: string; pdf: string } {
  const dir = path.join(dataDir, ROLL_CALLS_DIR, r.date);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const base = path.join(dir, `chamada-${r.id}`);
  const put = (file: string, data: string | Buffer): string => {
    fs.writeFileSync(`${file}.tmp`, data, { mode: 0o600 });
    fs.renameSync(`${file}.tmp`, file);
    return file;
  };
  return { csv: put(`${base}.csv`, rollCallCsv(r, zone)), pdf: put(`${base}.pdf`, rollCallPdf(r, zone, site)) };
}
