/**
 * A one-page PDF 1.4 of plain text lines (issue 26: the worker's PDF receipt, Portaria 671 Art. 80),
 * with the standard Helvetica and Helvetica-Bold fonts in WinAnsiEncoding, which every PDF reader
 * has: no font is embedded, Portuguese accents are single bytes. Pure: the caller passes the
 * creation date. Characters WinAnsi cannot carry are written as "?"; long lines are wrapped.
 */

export type PdfLine = {
  text: string;
  bold?: boolean;
  size?: number;
  /** Blank space before it, in points. */ gap?: number;
};
export type PdfDocument = {
  lines: PdfLine[];
  title: string;
  /** D:YYYYMMDDHHmmSS+HH'mm' (pdfDate). */ creationDate: string;
};

/** A5 portrait, in points. */
const WIDTH = 420;
const HEIGHT = 595;
const MARGIN = 36;

/** WinAnsi's characters in 0x80–0x9F (cp1252) by their Unicode code point; 0xA0–0xFF are Latin-1's own. */
const CP1252_HIGH: Record<number, number> = {
  0x20ac: 0x80,
  0x201a: 0x82,
  0x0192: 0x83,
  0x201e: 0x84,
  0x2026: 0x85,
  0x2020: 0x86,
  0x2021: 0x87,
  0x02c6: 0x88,
  0x2030: 0x89,
  0x0160: 0x8a,
  0x2039: 0x8b,
  0x0152: 0x8c,
  0x017d: 0x8e,
  0x2018: 0x91,
  0x2019: 0x92,
  0x201c: 0x93,
  0x201d: 0x94,
  0x2022: 0x95,
  0x2013: 0x96,
  0x2014: 0x97,
  0x02dc: 0x98,
  0x2122: 0x99,
  0x0161: 0x9a,
  0x203a: 0x9b,
  0x0153: 0x9c,
  0x017e: 0x9e,
  0x0178: 0x9f,
};

/** The text as WinAnsi bytes. */
export function winAnsi(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0) as number;
    if ((c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff)) out.push(c);
    else if (CP1252_HIGH[c] !== undefined) out.push(CP1252_HIGH[c] as number);
    else if (c === 0x09) out.push(0x20);
    else out.push(0x3f); // "?"
  }
  return out;
}

/** A PDF literal string: ( ) \ escaped, bytes outside printable ASCII as octal escapes, so the file stays 7-bit. */
/** A PDF string literal of `text` in WinAnsi, escaped (PDF 1.4, 3.2.3). */
export function literal(text: string): string {
  let s = '(';
  for (const b of winAnsi(text)) {
    if (b === 0x28 || b === 0x29 || b === 0x5c) s += `\\${String.fromCharCode(b)}`;
    else if (b < 0x20 || b > 0x7e) s += `\\${b.toString(8).padStart(3, '0')}`;
    else s += String.fromCharCode(b);
  }
  return `${s})`;
}

/** Cut into pieces of at most `max` characters, at spaces where there are any. */
export function wrap(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while ([...rest].length > max) {
    const chars = [...rest];
    const head = chars.slice(0, max).join('');
    const space = head.lastIndexOf(' ');
    const cut = space > max / 2 ? space : head.length;
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  out.push(rest);
  return out;
}

/** A PDF date: D:YYYYMMDDHHmmSS followed by the offset (+HH'mm'), from local wall time fields. */
export function pdfDate(date: string, time: string, utcOffset: string): string {
  return `D:${date.replace(/-/g, '')}${time.replace(/:/g, '')}${utcOffset.slice(0, 3)}'${utcOffset.slice(4, 6)}'`;
}

export function buildTextPdf(doc: PdfDocument): Buffer {
  const ops: string[] = ['BT'];
  let y = HEIGHT - MARGIN;
  for (const line of doc.lines) {
    const size = line.size ?? 10;
    // Helvetica's average glyph is about half its size wide: lines wrap before the right margin.
    const perLine = Math.floor((WIDTH - 2 * MARGIN) / (size * 0.55));
    let gap = line.gap ?? 0;
    for (const piece of wrap(line.text, perLine)) {
      y -= gap + size * 1.35;
      gap = 0;
      ops.push(
        `/${line.bold ? 'F2' : 'F1'} ${size} Tf`,
        `1 0 0 1 ${MARGIN} ${y.toFixed(2)} Tm`,
        `${literal(piece)} Tj`,
      );
    }
  }
  ops.push('ET');
  const content = ops.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${WIDTH} ${HEIGHT}] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    `<< /Title ${literal(doc.title)} /Producer (timeclock-kiosk) /CreationDate (${doc.creationDate}) >>`,
  ];
  return assemblePdf(objects, 7);
}

/**
 * The file around numbered objects (object i + 1 is `objects[i]`; 1 is the catalog): header, objects,
 * cross-reference table and trailer naming the catalog and the document information object `info`.
 */
export function assemblePdf(objects: readonly string[], info: number): Buffer {
  // The binary comment line tells transfer tools the file is not text (PDF 1.4, 7.5.2).
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${info} 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
