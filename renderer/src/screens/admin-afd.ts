/**
 * The admin screen's AFD tab: a date range (this month so far, in the site's days, to start with),
 * where the file goes (a USB drive the agent found, or in browser mode a download from the web
 * bridge), and the export. The answer is worded here from its code, in the screen's language.
 */
import { AFD_DOWNLOAD_PATH, type CallOutput } from '../../../src/contract.js';
import { webToken } from '../bridge.js';
import { button, fill, h, setText } from '../dom.js';
import { t, type Lang } from '../i18n.js';
import { row, type Panel, type Shared } from './admin-common.js';
import type { Ctx } from './view.js';

type Target = { kind: 'drive'; path: string } | { kind: 'download' };
type Done = Extract<CallOutput<'exportAfd'>, { ok: true }>;
type Drive = CallOutput<'afdTargets'>['drives'][number];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function dateInput(testid: string, label: string): HTMLInputElement {
  const i = h('input', { testid, class: 'text-input afd-date', attrs: { 'aria-label': label } });
  i.type = 'date';
  return i;
}

function gigabytes(bytes: number, lang: Lang): string {
  return new Intl.NumberFormat(lang, { style: 'unit', unit: 'gigabyte', maximumFractionDigits: 1 }).format(bytes / 1e9);
}

function driveText(d: Drive, lang: Lang): string {
  if (d.readOnly) return t(lang, 'afd.driveReadOnly', { label: d.label });
  return d.freeBytes === null ? t(lang, 'afd.driveNoFree', { label: d.label }) : t(lang, 'afd.drive', { label: d.label, free: gigabytes(d.freeBytes, lang) });
}

/** Fetches a one-time download with the session token and hands it to the browser as a file; the HTTP status when refused. */
async function download(id: string, name: string, host: HTMLElement): Promise<number | null> {
  const res = await fetch(`${AFD_DOWNLOAD_PATH}${id}`, { headers: { 'x-kiosk-token': webToken() ?? '' }, cache: 'no-store' });
  if (!res.ok) return res.status;
  const url = URL.createObjectURL(await res.blob());
  const a = h('a', { attrs: { href: url, download: name } });
  host.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return null;
}

export function afdPanel(ctx: Ctx, sh: Shared): Panel {
  const lang = ctx.lang;
  const canDownload = webToken() !== null;
  const from = dateInput('afd-from', t(lang, 'afd.from'));
  const to = dateInput('afd-to', t(lang, 'afd.to'));
  const targets = h('div', { class: 'afd-targets', testid: 'afd-targets', attrs: { role: 'radiogroup' } });
  const note = h('p', { class: 'muted', testid: 'afd-note' });
  const missing = h('div', { testid: 'afd-missing' });
  const go = button(t(lang, 'afd.export'), () => void run(), { class: 'action-button', testid: 'afd-export' });
  const rescan = button(t(lang, 'afd.rescan'), () => void load(), { class: 'row-button', testid: 'afd-rescan' });
  const result = h('div', { class: 'afd-result', testid: 'afd-result' });
  let choice: Target | null = null;
  let busy = false;

  const option = (target: Target, text: string, disabled: boolean): HTMLElement => {
    const radio = h('input', { testid: target.kind === 'drive' ? 'afd-target-drive' : 'afd-target-download', data: target.kind === 'drive' ? { path: target.path } : {} });
    radio.type = 'radio';
    radio.name = 'afd-target';
    radio.disabled = disabled;
    radio.checked = !disabled && JSON.stringify(choice) === JSON.stringify(target);
    radio.addEventListener('change', () => {
      if (radio.checked) choice = target;
    });
    return h('label', { class: 'afd-target' }, [radio, ` ${text}`]);
  };

  const load = async (): Promise<void> => {
    const r = await sh.calls('afdTargets', {});
    if (!sh.alive() || sh.failed(r)) return;
    const v = r.value;
    if (!DAY.test(from.value) && !DAY.test(to.value)) {
      from.value = `${v.today.slice(0, 8)}01`;
      to.value = v.today;
    }
    const writable = v.drives.filter((d) => !d.readOnly);
    const still = choice?.kind === 'drive' ? writable.some((d) => d.path === (choice as { path: string }).path) : choice !== null;
    if (!still) choice = writable[0] ? { kind: 'drive', path: writable[0].path } : canDownload ? { kind: 'download' } : null;
    fill(targets, [
      ...v.drives.map((d) => option({ kind: 'drive', path: d.path }, driveText(d, lang), d.readOnly)),
      canDownload ? option({ kind: 'download' }, t(lang, 'afd.download'), false) : null,
      v.drives.length === 0 ? h('p', { class: 'muted', testid: 'afd-no-drives', text: t(lang, 'afd.noDrives') }) : null,
    ]);
    setText(note, t(lang, v.signed ? 'afd.signedNote' : 'afd.unsignedNote'));
    // Only when something lacks: the warning's box shows even empty.
    fill(missing, v.missing.length ? [h('p', { class: 'token-warning', text: t(lang, 'afd.missing', { keys: v.missing.join(', ') }), attrs: { role: 'alert' } })] : []);
  };

  const shown = (d: Done): void => {
    const nsr = (n: number | null): string => String(n).padStart(9, '0');
    const rows = [
      row(t(lang, 'afd.result.file'), d.fileName, 'afd-file'),
      row(t(lang, 'afd.result.marks'), String(d.marks), 'afd-marks'),
      row(t(lang, 'afd.result.nsr'), d.firstNsr === null ? t(lang, 'afd.result.none') : t(lang, 'afd.result.nsrRange', { first: nsr(d.firstNsr), last: nsr(d.lastNsr) })),
      row(t(lang, 'afd.result.signed'), t(lang, d.signed ? 'afd.result.signedYes' : 'afd.result.signedNo'), 'afd-signed'),
      d.where.kind === 'drive' ? row(t(lang, 'afd.result.where'), t(lang, 'afd.result.folder', { label: d.where.label, folder: d.where.folder }), 'afd-where') : null,
    ];
    const files = d.downloads ? [{ id: d.downloads.file, name: d.fileName, key: 'afd.downloadFile' as const }, ...(d.downloads.p7s ? [{ id: d.downloads.p7s, name: `${d.fileName}.p7s`, key: 'afd.downloadP7s' as const }] : [])] : [];
    const buttons = files.map((f) => {
      const b = button(t(lang, f.key), () => {
        b.disabled = true;
        void download(f.id, f.name, result).then((status) => {
          if (!sh.alive()) return;
          sh.notice(status === null ? t(lang, 'afd.downloaded', { file: f.name }) : t(lang, 'afd.downloadFailed', { status: String(status) }), status === null ? 'ok' : 'error');
        });
      }, { class: 'action-button', testid: f.key === 'afd.downloadFile' ? 'afd-download-file' : 'afd-download-p7s' });
      return b;
    });
    fill(result, [h('dl', { class: 'facts' }, rows), buttons.length ? h('div', { class: 'sync-row' }, buttons) : null]);
    result.scrollIntoView({ block: 'nearest' });
  };

  const run = async (): Promise<void> => {
    if (busy) return;
    const f = from.value;
    const l = to.value;
    if (!DAY.test(f) || !DAY.test(l) || f > l) return sh.notice(t(lang, 'afd.badRange'), 'error');
    if (choice === null) return sh.notice(t(lang, 'afd.pickTarget'), 'error');
    busy = true;
    go.disabled = true;
    setText(go, t(lang, 'afd.exporting'));
    fill(result, []);
    const r = await sh.calls('exportAfd', { from: f, to: l, target: choice });
    busy = false;
    if (!sh.alive()) return;
    go.disabled = false;
    setText(go, t(lang, 'afd.export'));
    if (sh.failed(r)) return;
    const v = r.value;
    if (!v.ok) {
      sh.notice(t(lang, `afd.error.${v.code}`, v.params), 'error');
      if (v.code === 'drive_unknown') void load();
      return;
    }
    sh.notice(v.where.kind === 'drive' ? t(lang, 'afd.doneDrive', { label: v.where.label, marks: v.marks }) : t(lang, 'afd.doneDownload', { marks: v.marks }), 'ok');
    shown(v);
  };

  const el = h('div', { class: 'panel-body afd-panel' }, [
    h('h2', { text: t(lang, 'afd.title') }),
    h('section', { class: 'setting' }, [
      h('div', { class: 'field' }, [
        h('label', { text: t(lang, 'afd.period') }),
        h('div', { class: 'field-row' }, [from, h('span', { class: 'per', text: t(lang, 'afd.to') }), to]),
      ]),
    ]),
    h('section', { class: 'setting' }, [
      h('div', { class: 'field' }, [h('div', { class: 'field-row afd-where' }, [h('label', { text: t(lang, 'afd.where') }), rescan]), targets]),
    ]),
    h('section', { class: 'setting' }, [missing, note, h('div', { class: 'field-row' }, [go])]),
    result,
  ]);
  void load();
  return { el, update() {} };
}
