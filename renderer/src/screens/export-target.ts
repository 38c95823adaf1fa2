/**
 * Where an admin export goes (AFD, punches CSV): a USB drive the agent found, or in browser mode a
 * one-time download from the web bridge (AFD_DOWNLOAD_PATH). One picker and one download for both
 * panels; `prefix` names their test ids (`afd-…`, `csv-…`).
 */
import { AFD_DOWNLOAD_PATH, type CallOutput, type CallResult } from '../../../src/contract.js';
import { webToken } from '../bridge.js';
import { fill, h, setText } from '../dom.js';
import { t, type Lang, type MessageKey } from '../i18n.js';
import type { Shared } from './admin-common.js';

export type Target = { kind: 'drive'; path: string } | { kind: 'download' };
type Drive = CallOutput<'afdTargets'>['drives'][number];

export const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function dateInput(testid: string, label: string): HTMLInputElement {
  const i = h('input', { testid, class: 'text-input afd-date', attrs: { 'aria-label': label } });
  i.type = 'date';
  return i;
}

function driveText(d: Drive, lang: Lang): string {
  if (d.readOnly) return t(lang, 'afd.driveReadOnly', { label: d.label });
  if (d.freeBytes === null) return t(lang, 'afd.driveNoFree', { label: d.label });
  const free = new Intl.NumberFormat(lang, { style: 'unit', unit: 'gigabyte', maximumFractionDigits: 1 }).format(d.freeBytes / 1e9);
  return t(lang, 'afd.drive', { label: d.label, free });
}

/** Fetches a one-time download with the session token and hands it to the browser as a file; the HTTP status when refused. */
export async function download(id: string, name: string, host: HTMLElement): Promise<number | null> {
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

export type TargetPicker = {
  el: HTMLElement;
  /** The chosen target; null when there is none (no writable drive, not in browser mode). */
  choice(): Target | null;
  /** The drives found now: the choice stays if it still can be, else the first writable drive, else the download. */
  show(drives: readonly Drive[]): void;
};

export function targetPicker(prefix: 'afd' | 'csv', lang: Lang): TargetPicker {
  const canDownload = webToken() !== null;
  const el = h('div', { class: 'afd-targets', testid: `${prefix}-targets`, attrs: { role: 'radiogroup' } });
  let choice: Target | null = null;
  const option = (target: Target, text: string, disabled: boolean): HTMLElement => {
    const radio = h('input', { testid: `${prefix}-target-${target.kind}`, data: target.kind === 'drive' ? { path: target.path } : {} });
    radio.type = 'radio';
    radio.name = `${prefix}-target`;
    radio.disabled = disabled;
    radio.checked = !disabled && JSON.stringify(choice) === JSON.stringify(target);
    radio.addEventListener('change', () => {
      if (radio.checked) choice = target;
    });
    return h('label', { class: 'afd-target' }, [radio, ` ${text}`]);
  };
  return {
    el,
    choice: () => choice,
    show(drives) {
      const writable = drives.filter((d) => !d.readOnly);
      const current = choice;
      const still = current?.kind === 'drive' ? writable.some((d) => d.path === current.path) : current !== null;
      if (!still) choice = writable[0] ? { kind: 'drive', path: writable[0].path } : canDownload ? { kind: 'download' } : null;
      fill(el, [
        ...drives.map((d) => option({ kind: 'drive', path: d.path }, driveText(d, lang), d.readOnly)),
        canDownload ? option({ kind: 'download' }, t(lang, 'afd.download'), false) : null,
        drives.length === 0 ? h('p', { class: 'muted', testid: `${prefix}-no-drives`, text: t(lang, 'afd.noDrives') }) : null,
      ]);
    },
  };
}

type Export = 'exportAfd' | 'exportPunchesCsv';
type Refused = Extract<CallOutput<'exportAfd'>, { ok: false }>;

/**
 * One export with its button busy ("Exporting…") and the screen cleared for the answer; a refusal
 * worded from its code (`afd.error.<code>`), the drives looked at again when the chosen one went
 * away. The answer when the file was written, else null.
 */
export async function exporting<N extends Export>(
  sh: Shared,
  go: HTMLButtonElement,
  labels: { idle: MessageKey; busy: MessageKey },
  result: HTMLElement,
  call: () => Promise<CallResult<N> | null>,
  reload: () => void,
): Promise<Extract<CallOutput<N>, { ok: true }> | null> {
  if (go.disabled) return null;
  go.disabled = true;
  setText(go, t(sh.lang, labels.busy));
  fill(result, []);
  const r = await call();
  if (!sh.alive()) return null;
  go.disabled = false;
  setText(go, t(sh.lang, labels.idle));
  if (sh.failed(r)) return null;
  const v = r.value as Extract<CallOutput<N>, { ok: true }> | Refused;
  if (!v.ok) {
    sh.notice(t(sh.lang, `afd.error.${v.code}`, v.params), 'error');
    if (v.code === 'drive_unknown') reload();
    return null;
  }
  return v;
}
