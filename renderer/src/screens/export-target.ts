/**
 * Where an admin export goes (AFD, punches CSV): a USB drive the agent found, or in browser mode a
 * one-time download from the web bridge (AFD_DOWNLOAD_PATH). One picker and one download for both
 * panels; `prefix` names their test ids (`afd-…`, `csv-…`).
 */
import { AFD_DOWNLOAD_PATH, type CallOutput, type CallResult } from '../../../src/contract.js';
import { webToken } from '../bridge.js';
import { button, fill, h, setText } from '../dom.js';
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
  const free = new Intl.NumberFormat(lang, { style: 'unit', unit: 'gigabyte', maximumFractionDigits: 1 }).format(
    d.freeBytes / 1e9,
  );
  return t(lang, 'afd.drive', { label: d.label, free });
}

/**
 * Fetches a one-time download with the session token and hands it to the browser as a file; the HTTP status when
 * refused.
 */
export async function download(id: string, name: string, host: HTMLElement): Promise<number | null> {
  const res = await fetch(`${AFD_DOWNLOAD_PATH}${id}`, {
    headers: { 'x-kiosk-token': webToken() ?? '' },
    cache: 'no-store',
  });
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
    const radio = h('input', {
      testid: `${prefix}-target-${target.kind}`,
      data: target.kind === 'drive' ? { path: target.path } : {},
    });
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
      if (!still)
        choice = writable[0] ? { kind: 'drive', path: writable[0].path } : canDownload ? { kind: 'download' } : null;
      fill(el, [
        ...drives.map((d) => option({ kind: 'drive', path: d.path }, driveText(d, lang), d.readOnly)),
        canDownload ? option({ kind: 'download' }, t(lang, 'afd.download'), false) : null,
        drives.length === 0
          ? h('p', { class: 'muted', testid: `${prefix}-no-drives`, text: t(lang, 'afd.noDrives') })
          : null,
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

export type ExportForm = {
  from: HTMLInputElement;
  to: HTMLInputElement;
  targets: TargetPicker;
  result: HTMLElement;
  /** The period's field and the target's field with its rescan button, for the panel to place. */
  sections: HTMLElement[];
  /** The agent's `afdTargets` answer: the period starts as this month so far, the drives shown now. */
  show(v: CallOutput<'afdTargets'>): void;
};

/** The period and the target of an export (AFD, punches CSV), with the box its answer goes in. */
export function exportForm(prefix: 'afd' | 'csv', lang: Lang, period: MessageKey, rescan: () => void): ExportForm {
  const from = dateInput(`${prefix}-from`, t(lang, 'afd.from'));
  const to = dateInput(`${prefix}-to`, t(lang, 'afd.to'));
  const targets = targetPicker(prefix, lang);
  const again = button(t(lang, 'afd.rescan'), rescan, { class: 'row-button', testid: `${prefix}-rescan` });
  const result = h('div', { class: 'afd-result', testid: `${prefix}-result` });
  const sections = [
    h('section', { class: 'setting' }, [
      h('div', { class: 'field' }, [
        h('label', { text: t(lang, period) }),
        h('div', { class: 'field-row' }, [from, h('span', { class: 'per', text: t(lang, 'afd.to') }), to]),
      ]),
    ]),
    h('section', { class: 'setting' }, [
      h('div', { class: 'field' }, [
        h('div', { class: 'field-row afd-where' }, [h('label', { text: t(lang, 'afd.where') }), again]),
        targets.el,
      ]),
    ]),
  ];
  return {
    from,
    to,
    targets,
    result,
    sections,
    show(v) {
      if (!DAY.test(from.value) && !DAY.test(to.value)) {
        from.value = `${v.today.slice(0, 8)}01`;
        to.value = v.today;
      }
      targets.show(v.drives);
    },
  };
}

/** A button that downloads one exported file once (then stays disabled) and says how it went. */
export function downloadButton(
  sh: Shared,
  file: { id: string; name: string },
  label: MessageKey,
  testid: string,
  host: HTMLElement,
): HTMLButtonElement {
  const b = button(
    t(sh.lang, label),
    () => {
      b.disabled = true;
      void download(file.id, file.name, host).then((status) => {
        if (!sh.alive()) return;
        sh.notice(
          status === null
            ? t(sh.lang, 'afd.downloaded', { file: file.name })
            : t(sh.lang, 'afd.downloadFailed', { status: String(status) }),
          status === null ? 'ok' : 'error',
        );
      });
    },
    { class: 'action-button', testid },
  );
  return b;
}

/**
 * After an export to a drive: "Remove the drive safely" (bridge call unmountDrive). Once it says
 * the drive can be pulled out, the button stays disabled and the drives are looked at again.
 */
export function unmountButton(sh: Shared, drivePath: string, testid: string, reload: () => void): HTMLButtonElement {
  const b = button(
    t(sh.lang, 'afd.unmount'),
    () => {
      if (b.disabled) return;
      b.disabled = true;
      setText(b, t(sh.lang, 'afd.unmounting'));
      void sh.calls('unmountDrive', { path: drivePath }).then((r) => {
        if (!sh.alive()) return;
        setText(b, t(sh.lang, 'afd.unmount'));
        if (sh.failed(r)) {
          b.disabled = false;
          return;
        }
        const v = r.value;
        if (v.ok) sh.notice(t(sh.lang, 'afd.unmounted', { label: v.label }), 'ok');
        else {
          b.disabled = v.code === 'drive_unknown';
          sh.notice(
            t(sh.lang, v.code === 'unmount_failed' ? 'afd.unmountFailed' : 'afd.error.drive_unknown', v.params),
            'error',
          );
        }
        reload();
      });
    },
    { class: 'action-button', testid },
  );
  return b;
}
