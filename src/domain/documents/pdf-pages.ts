/**
 * A PDF 1.4 of plain text lines over as many A4 pages as they need (issue 30: a roll call's
 * printable list of thousands of people), with the fonts and encoding of pdf-text.ts (the one-page
 * receipt). Pure: the caller passes the creation date.
 */
import { assemblePdf, literal, wrap, type PdfDocument } from './pdf-text.js';

/** A4 portrait, in points. */
const WIDTH = 595;
const HEIGHT = 842;
const MARGIN = 40;

/** The content streams, one per page: a line that does not fit goes to the next page. */
function pages(doc: PdfDocument): string[] {
  const out: string[] = [];
  let ops: string[] = [];
  let y = HEIGHT - MARGIN;
  for (const line of doc.lines) {
    const size = line.size ?? 10;
    const perLine = Math.floor((WIDTH - 2 * MARGIN) / (size * 0.55));
    let gap = line.gap ?? 0;
    for (const piece of wrap(line.text, perLine)) {
      if (y - gap - size * 1.35 < MARGIN && ops.length > 0) {
        out.push(ops.join('\n'));
        ops = [];
        y = HEIGHT - MARGIN;
        gap = 0;
      }
      y -= gap + size * 1.35;
      gap = 0;
      ops.push(
        `/${line.bold ? 'F2' : 'F1'} ${size} Tf`,
        `1 0 0 1 ${MARGIN} ${y.toFixed(2)} Tm`,
        `${literal(piece)} Tj`,
      );
    }
  }
  out.push(ops.join('\n'));
  return out.map((o) => `BT\n${o}\nET`);
}

export function buildPagedPdf(doc: PdfDocument): Buffer {
  const contents = pages(doc);
  const n = contents.length;
  // Objects: 1 catalog, 2 pages, 3 and 4 fonts, 5 info, then a page and its content for each page.
  const pageObj = (i: number): number => 6 + 2 * i;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${contents.map((_, i) => `${pageObj(i)} 0 R`).join(' ')}] /Count ${n} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Title ${literal(doc.title)} /Producer (timeclock-kiosk) /CreationDate (${doc.creationDate}) >>`,
  ];
  contents.forEach((c, i) => {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${WIDTH} ${HEIGHT}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageObj(i) + 1} 0 R >>`,
      `<< /Length ${Buffer.byteLength(c, 'latin1')} >>\nstream\n${c}\nendstream`,
    );
  });
  return assemblePdf(objects, 5);
}
