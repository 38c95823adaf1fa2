/**
 * The admin screen's AFD tab: a date range (this month so far, in the site's days, to start with),
 * where the file goes (a USB drive the agent found, or in browser mode a download from the web
 * bridge), and the export. The answer is worded here from its code, in the screen's language.
 */
import type { CallOutput } from '../../../src/contract.js';
import { button, fill, h, setText } from '../dom.js';
import { t } from '../i18n.js';
import { row, type Panel, type Shared } from './admin-common.js';
import { DAY, downloadButton, exportForm, exporting, unmountButton } from './export-target.js';
import type { Ctx } from './view.js';

type Done = Extract<CallOutput<'exportAfd'>, { ok: true }>;

export function afdPanel(ctx: Ctx, sh: Shared): Panel {
  const lang = ctx.lang;
  const form = exportForm('afd', lang, 'afd.period', () => void load());
  const { from, to, targets, result } = form;
  const note = h('p', { class: 'muted', testid: 'afd-note' });
  const missing = h('div', { testid: 'afd-missing' });
  const go = button(t(lang, 'afd.export'), () => void run(), { class: 'action-button', testid: 'afd-export' });
  const load = async (): Promise<void> => {
    const r = await sh.calls('afdTargets', {});
    if (!sh.alive() || sh.failed(r)) return;
    const v = r.value;
    form.show(v);
    setText(note, t(lang, v.signed ? 'afd.signedNote' : 'afd.unsignedNote'));
    // Only when something lacks: the warning's box shows even empty.
    fill(
      missing,
      v.missing.length
        ? [
            h('p', {
              class: 'token-warning',
              text: t(lang, 'afd.missing', { keys: v.missing.join(', ') }),
              attrs: { role: 'alert' },
            }),
          ]
        : [],
    );
  };

  const shown = (d: Done, drivePath: string | null): void => {
    const nsr = (n: number | null): string => String(n).padStart(9, '0');
    const rows = [
      row(t(lang, 'afd.result.file'), d.fileName, 'afd-file'),
      row(
        t(lang, 'afd.result.terminal'),
        t(lang, 'afd.result.terminalValue', { terminal: d.terminal }),
        'afd-terminal',
      ),
      row(t(lang, 'afd.result.marks'), String(d.marks), 'afd-marks'),
      row(
        t(lang, 'afd.result.nsr'),
        d.firstNsr === null
          ? t(lang, 'afd.result.none')
          : t(lang, 'afd.result.nsrRange', { first: nsr(d.firstNsr), last: nsr(d.lastNsr) }),
      ),
      row(
        t(lang, 'afd.result.signed'),
        t(lang, d.signed ? 'afd.result.signedYes' : 'afd.result.signedNo'),
        'afd-signed',
      ),
      d.where.kind === 'drive'
        ? row(
            t(lang, 'afd.result.where'),
            t(lang, 'afd.result.folder', { label: d.where.label, folder: d.where.folder }),
            'afd-where',
          )
        : null,
    ];
    const files = d.downloads
      ? [
          { id: d.downloads.file, name: d.fileName, key: 'afd.downloadFile' as const },
          ...(d.downloads.p7s
            ? [{ id: d.downloads.p7s, name: `${d.fileName}.p7s`, key: 'afd.downloadP7s' as const }]
            : []),
        ]
      : [];
    const buttons = files.map((f) =>
      downloadButton(sh, f, f.key, f.key === 'afd.downloadFile' ? 'afd-download-file' : 'afd-download-p7s', result),
    );
    if (drivePath !== null) buttons.push(unmountButton(sh, drivePath, 'afd-unmount', () => void load()));
    fill(result, [h('dl', { class: 'facts' }, rows), buttons.length ? h('div', { class: 'sync-row' }, buttons) : null]);
    result.scrollIntoView({ block: 'nearest' });
  };

  const run = async (): Promise<void> => {
    const f = from.value;
    const l = to.value;
    if (!DAY.test(f) || !DAY.test(l) || f > l) return sh.notice(t(lang, 'afd.badRange'), 'error');
    const choice = targets.choice();
    if (choice === null) return sh.notice(t(lang, 'afd.pickTarget'), 'error');
    const v = await exporting(
      sh,
      go,
      { idle: 'afd.export', busy: 'afd.exporting' },
      result,
      () => sh.calls('exportAfd', { from: f, to: l, target: choice }),
      () => void load(),
    );
    if (!v) return;
    sh.notice(
      v.where.kind === 'drive'
        ? t(lang, 'afd.doneDrive', { label: v.where.label, marks: v.marks })
        : t(lang, 'afd.doneDownload', { marks: v.marks }),
      'ok',
    );
    shown(v, choice.kind === 'drive' ? choice.path : null);
  };

  const el = h('div', { class: 'panel-body afd-panel' }, [
    h('h2', { text: t(lang, 'afd.title') }),
    ...form.sections,
    h('section', { class: 'setting' }, [missing, note, h('div', { class: 'field-row' }, [go])]),
    result,
  ]);
  void load();
  return { el, update() {} };
}
