/**
 * The receipt card: title, the QR code drawn on a canvas (the page's CSP allows no inline images
 * by choice; a canvas needs none), and the labelled rows. Shared by the result screen and the
 * admin screen's lookup.
 */
import type { PunchReceiptView } from '../../../src/contract.js';
import { h } from '../dom.js';
import { t, type Lang } from '../i18n.js';
import { QR_QUIET, qrOf, qrScale, receiptRows } from '../receipt-view.js';

/** The screen's unit (styles.css --u): the smaller of 1% of the width and 1/60 of the height, in CSS px. */
function unitPx(): number {
  return Math.min(window.innerWidth / 100, window.innerHeight / 60);
}

/**
 * The QR code, dark on white with its quiet zone, `units` of the screen's unit a side at most. Null
 * when no code can hold the text (the agent cuts it to fit: an older agent's, say): the receipt's
 * rows are still shown, never a broken screen.
 */
export function qrCanvas(r: PunchReceiptView, lang: Lang, units: number): HTMLCanvasElement | null {
  let qr: ReturnType<typeof qrOf>;
  try {
    qr = qrOf(r.qrText ?? r.text);
  } catch {
    return null;
  }
  const scale = qrScale(qr.size, units * unitPx());
  const side = (qr.size + 2 * QR_QUIET) * scale;
  // Drawn at the device's pixel density, so a module is whole pixels on the glass too.
  const dpr = Math.max(1, Math.round(window.devicePixelRatio || 1));
  const canvas = h('canvas', {
    class: 'receipt-qr',
    testid: 'receipt-qr',
    data: { size: String(qr.size) },
    attrs: { role: 'img', 'aria-label': t(lang, 'receipt.qr') },
  });
  canvas.width = side * dpr;
  canvas.height = side * dpr;
  canvas.style.width = `${side}px`;
  canvas.style.height = `${side}px`;
  const g = canvas.getContext('2d');
  if (!g) return canvas;
  const px = scale * dpr;
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = '#000000';
  for (let row = 0; row < qr.size; row++) {
    for (let col = 0; col < qr.size; col++)
      if (qr.dark(row, col)) g.fillRect((col + QR_QUIET) * px, (row + QR_QUIET) * px, px, px);
  }
  return canvas;
}

/**
 * `maxQrUnits`: the QR code's side at most; `heightUnits` (stacked): the height the whole card may
 * take, so the code gives way to the rows (8 rows with an employer, 6 without) instead of overflowing.
 */
export type ReceiptCardOptions = { layout: 'stacked' | 'side'; maxQrUnits: number; heightUnits?: number };

/**
 * A stacked card's height besides the QR code, in screen units (styles.css .receipt): padding, title, gaps, and each
 * line of a row.
 */
const CARD_FIXED_UNITS = 7;
const ROW_UNITS = 2.3;
/** A value longer than this may take a second line (rows are clamped to two: styles 95-long-text.css). */
const ROW_LINE_CHARS = 30;
const rowLines = (value: string): number => (value.length > ROW_LINE_CHARS ? 2 : 1);

/**
 * A row's value: clamped to two lines. Beside the code (the admin lookup) a long one opens on a tap,
 * whole and scrolled inside the card, for the manager or an inspector; on the result screen a tap
 * closes the result, and the worker reads the start of it (their name is above, the QR code carries it).
 */
function receiptRow(
  row: { key: string; label: string; value: string },
  layout: ReceiptCardOptions['layout'],
  lang: Lang,
): HTMLElement {
  const dt = h('dt', { text: row.label });
  const dd = h('dd', { testid: `receipt-${row.key}`, text: row.value });
  if (layout === 'side' && rowLines(row.value) > 1) {
    dd.dataset.expanded = 'false';
    dd.id = `receipt-value-${row.key}`;
    // A definition may not itself be a button (axe-core, issue 29): the keyboard and a screen reader have one in
    // its term, the finger taps the value; both open it.
    const more = h('button', {
      class: 'sr-only',
      testid: `receipt-${row.key}-whole`,
      text: t(lang, 'receipt.showWhole'),
      attrs: { type: 'button', 'aria-expanded': 'false', 'aria-controls': dd.id },
    });
    const toggle = (): void => {
      const open = dd.dataset.expanded !== 'true';
      dd.dataset.expanded = String(open);
      more.setAttribute('aria-expanded', String(open));
    };
    dd.addEventListener('click', toggle);
    more.addEventListener('click', toggle);
    dt.append(more);
  }
  return h('div', { class: 'receipt-row', data: { key: row.key } }, [dt, dd]);
}

export function receiptCard(r: PunchReceiptView, lang: Lang, opts: ReceiptCardOptions): HTMLElement {
  const shown = receiptRows(r, lang);
  const lines = shown.reduce((n, row) => n + rowLines(row.value), 0);
  const qrUnits =
    opts.heightUnits === undefined
      ? opts.maxQrUnits
      : Math.min(opts.maxQrUnits, opts.heightUnits - CARD_FIXED_UNITS - lines * ROW_UNITS);
  const rows = shown.map((row) => receiptRow(row, opts.layout, lang));
  // Stacked, the title goes above the code (styles.css); side by side, above the rows.
  return h('section', { class: 'receipt', testid: 'receipt', data: { layout: opts.layout, nsr: r.nsr } }, [
    qrCanvas(r, lang, qrUnits),
    h('div', { class: 'receipt-text' }, [
      h('h2', { class: 'receipt-title', testid: 'receipt-title', text: t(lang, 'receipt.title') }),
      h('dl', { class: 'receipt-rows' }, rows),
    ]),
  ]);
}
