/**
 * The admin screen's Punches tab: an employee's punches of a day (by ID, registration number, CPF
 * or part of the name; the site's today to start with), with state, delivery time and NSR; and a
 * date range of punches as CSV, on a USB drive the agent found or, in browser mode, as a one-time
 * download (the AFD's mechanism: AFD_DOWNLOAD_PATH).
 */
import { PUNCH_CSV_MAX_DAYS, type CallOutput } from '../../../src/contract.js';
import { button, fill, h } from '../dom.js';
import { formatDateTime, formatShortLocalDate, shortText } from '../format.js';
import { t, type Lang } from '../i18n.js';
import { textInput, type Panel, type Shared } from './admin-common.js';
import { employeeLabel, serviceErrorLines } from './admin-waiting.js';
import { DAY, dateInput, downloadButton, exportForm, exporting, unmountButton } from './export-target.js';
import type { Ctx } from './view.js';
import { PhotoSlots } from './punch-photo-slot.js';

type Found = CallOutput<'findPunches'>;

const dayNumber = (s: string): number => Date.parse(`${s}T00:00:00Z`) / 86_400_000;

/** A name in the list of employees found: any length from the service, shown up to this many characters. */
const LISTED_NAME_MAX = 80;

function foundRows(v: Found, query: string, lang: Lang, ctx: Ctx, photos: PhotoSlots): Array<HTMLElement> {
  if (v.employees.length === 0)
    return [h('p', { class: 'warn', testid: 'punches-nobody', text: t(lang, 'punches.nobody', { query }) })];
  // Each name shortened inside the list so every id stays in sight; the whole names in the title.
  const listed = (name: (n: string) => string) =>
    v.employees.map((e) => (e.externalId ? `${name(e.name)} (${e.externalId})` : name(e.name))).join(', ');
  const names = h('p', {
    class: 'muted punches-employees',
    testid: 'punches-employees',
    text: listed((n) => shortText(n, LISTED_NAME_MAX)),
    attrs: { title: listed((n) => n) },
  });
  const more = v.more ? h('p', { class: 'muted', text: t(lang, 'punches.more') }) : null;
  if (v.punches.length === 0)
    return [
      names,
      ...(more ? [more] : []),
      h('p', {
        class: 'muted',
        testid: 'punches-none',
        text: t(lang, 'punches.none', { date: formatShortLocalDate(v.date, lang) }),
      }),
    ];
  const rows = v.punches.map((p) =>
    h('div', { class: 'found-row', testid: 'found-punch', data: { state: p.state, punchId: String(p.id) } }, [
      h('div', { class: 'wr-head' }, [
        h('span', { class: 'wr-when', text: p.localTime }),
        employeeLabel(p.employeeName, p.externalId),
        h('span', {
          class: 'wr-state',
          testid: 'found-state',
          data: { state: p.state },
          text: t(lang, `punches.state.${p.state}`),
        }),
      ]),
      h('div', { class: 'wr-facts muted' }, [
        p.sentAt === null ? null : t(lang, 'punches.sentAt', { time: formatDateTime(p.sentAt, lang, ctx.timeZone) }),
        p.nsr === null
          ? null
          : `${p.sentAt === null ? '' : ' · '}${t(lang, 'waiting.nsr', { nsr: String(p.nsr).padStart(9, '0') })}`,
      ]),
      (p.rejectReason ?? p.lastError)
        ? serviceErrorLines((p.rejectReason ?? p.lastError) as string, lang, 'found-error')
        : null,
      photos.slot(p.nsr),
    ]),
  );
  return [names, ...(more ? [more] : []), ...rows];
}

export function punchesPanel(ctx: Ctx, sh: Shared): Panel {
  const lang = ctx.lang;
  let last = ctx;
  const photos = new PhotoSlots(sh.calls, ctx);
  // ---- search
  const query = textInput('punches-query', { maxLength: 200 });
  query.setAttribute('aria-label', t(lang, 'punches.query'));
  query.placeholder = t(lang, 'punches.query');
  const day = dateInput('punches-date', t(lang, 'punches.date'));
  const search = button(t(lang, 'punches.search'), () => void find(), {
    class: 'action-button',
    testid: 'punches-search',
  });
  const found = h('div', { class: 'found-list', testid: 'punches-found' });
  const find = async (): Promise<void> => {
    const q = query.value.trim();
    if (q.length < 2) return sh.notice(t(lang, 'punches.tooShort'), 'error');
    search.disabled = true;
    const r = await sh.calls('findPunches', DAY.test(day.value) ? { employee: q, date: day.value } : { employee: q });
    if (!sh.alive()) return;
    search.disabled = false;
    if (sh.failed(r)) return;
    if (!DAY.test(day.value)) day.value = r.value.date;
    fill(found, foundRows(r.value, q, lang, last, photos));
  };
  query.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') void find();
  });

  // ---- CSV export
  const form = exportForm('csv', lang, 'csv.period', () => void load());
  const { from, to, targets, result } = form;
  const go = button(t(lang, 'csv.export'), () => void run(), { class: 'action-button', testid: 'csv-export' });
  const load = async (): Promise<void> => {
    const r = await sh.calls('afdTargets', {});
    if (!sh.alive() || sh.failed(r)) return;
    form.show(r.value);
    if (!DAY.test(day.value)) day.value = r.value.today;
  };

  const run = async (): Promise<void> => {
    const f = from.value;
    const l = to.value;
    if (!DAY.test(f) || !DAY.test(l) || f > l || dayNumber(l) - dayNumber(f) >= PUNCH_CSV_MAX_DAYS)
      return sh.notice(t(lang, 'csv.badRange', { max: PUNCH_CSV_MAX_DAYS }), 'error');
    const choice = targets.choice();
    if (choice === null) return sh.notice(t(lang, 'afd.pickTarget'), 'error');
    const v = await exporting(
      sh,
      go,
      { idle: 'csv.export', busy: 'csv.exporting' },
      result,
      () => sh.calls('exportPunchesCsv', { from: f, to: l, target: choice }),
      () => void load(),
    );
    if (!v) return;
    if (v.where.kind === 'drive') {
      sh.notice(t(lang, 'csv.doneDrive', { label: v.where.label, folder: v.where.folder, rows: v.rows }), 'ok');
      const unmount = choice.kind === 'drive' ? unmountButton(sh, choice.path, 'csv-unmount', () => void load()) : null;
      fill(result, [
        h('p', { testid: 'csv-file', text: v.fileName }),
        unmount ? h('div', { class: 'sync-row' }, [unmount]) : null,
      ]);
      return;
    }
    sh.notice(t(lang, 'csv.doneDownload', { rows: v.rows }), 'ok');
    const b = v.download
      ? downloadButton(sh, { id: v.download, name: v.fileName }, 'csv.downloadFile', 'csv-download', result)
      : null;
    fill(result, [h('p', { testid: 'csv-file', text: v.fileName }), b ? h('div', { class: 'sync-row' }, [b]) : null]);
    result.scrollIntoView({ block: 'nearest' });
  };

  const el = h('div', { class: 'panel-body punches-panel' }, [
    h('h2', { text: t(lang, 'punches.title') }),
    h('section', { class: 'setting punches-search' }, [h('div', { class: 'field-row' }, [query, day, search])]),
    found,
    h('h2', { text: t(lang, 'csv.title') }),
    ...form.sections,
    h('section', { class: 'setting' }, [h('div', { class: 'field-row' }, [go])]),
    result,
  ]);
  void load();
  return {
    el,
    update(c) {
      last = c;
    },
  };
}
