/**
 * The admin screen's receipt tab: a worker asks again for a punch's receipt; the manager types its
 * NSR and sees the same receipt as the result screen showed, QR code included.
 */
import { button, fill, h } from '../dom.js';
import { t } from '../i18n.js';
import { field, textInput, type Panel, type Shared } from './admin-common.js';
import { receiptCard } from './receipt-card.js';
import type { Ctx } from './view.js';
import { PhotoSlots } from './punch-photo-slot.js';

const NSR_MAX = 999_999_999;
/** The QR code's side at most, in screen units: beside the rows, inside the panel at 800×480. */
const ADMIN_QR_UNITS = 30;

/** The NSR typed: digits only (leading zeros as printed are fine), 1 to 999999999; else null. */
export function readNsr(text: string): number | null {
  const s = text.trim();
  if (!/^\d{1,9}$/.test(s)) return null;
  const n = Number(s);
  return n >= 1 && n <= NSR_MAX ? n : null;
}

export function receiptPanel(ctx: Ctx, sh: Shared): Panel {
  const lang = ctx.lang;
  const nsr = textInput('receipt-nsr', { inputmode: 'numeric', maxLength: 9 });
  const show = button(t(lang, 'receipt.lookup'), () => void lookup(), {
    class: 'action-button',
    testid: 'receipt-lookup',
  });
  const out = h('div', { class: 'receipt-found', testid: 'receipt-found' });
  let busy = false;
  const photos = new PhotoSlots(sh.calls, ctx);

  const lookup = async (): Promise<void> => {
    const n = readNsr(nsr.value);
    if (n === null) return sh.notice(t(lang, 'receipt.badNsr'), 'error');
    if (busy) return;
    busy = true;
    show.disabled = true;
    const r = await sh.calls('receipt', { nsr: n });
    busy = false;
    if (!sh.alive()) return;
    show.disabled = false;
    if (sh.failed(r)) return;
    if (r.value === null) {
      fill(out, []);
      return sh.notice(t(lang, 'receipt.notFound', { nsr: String(n).padStart(9, '0') }), 'info');
    }
    sh.notice(t(lang, 'receipt.found', { nsr: r.value.nsr, name: r.value.employeeName ?? '—' }), 'ok');
    const card = receiptCard(r.value, lang, { layout: 'side', maxQrUnits: ADMIN_QR_UNITS });
    const found = n;
    const pdf = button(t(lang, 'receipt.downloadPdf'), () => void download(found), {
      class: 'action-button',
      testid: 'receipt-pdf',
    });
    fill(out, [card, photos.slot(found), pdf]);
    // Under the field at 800×480: brought up whole, for the worker to scan.
    card.scrollIntoView({ block: 'nearest' });
  };

  /** The PDF (Art. 80) and its .p7s when signed, saved by the browser as files. */
  const download = async (n: number): Promise<void> => {
    const r = await sh.calls('receiptPdf', { nsr: n });
    if (!sh.alive() || sh.failed(r) || r.value === null) return;
    const save = (name: string, base64: string, type: string): void => {
      const a = h('a', { attrs: { href: `data:${type};base64,${base64}`, download: name } });
      document.body.append(a);
      a.click();
      a.remove();
    };
    save(r.value.fileName, r.value.pdf, 'application/pdf');
    if (r.value.p7s) save(`${r.value.fileName}.p7s`, r.value.p7s, 'application/pkcs7-signature');
  };

  const el = h('div', { class: 'panel-body receipt-panel' }, [
    h('section', { class: 'setting' }, [
      field(t(lang, 'receipt.lookupLabel'), nsr, show),
      h('p', { class: 'muted', text: t(lang, 'receipt.lookupHint') }),
    ]),
    out,
  ]);
  return { el, update() {} };
}
