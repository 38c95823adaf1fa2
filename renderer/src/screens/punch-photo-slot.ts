/**
 * Issue 31: a punch's photo beside it on the admin screen (punches, held list, receipt): the JPEG
 * the agent keeps, or "sem foto" / "removed" as the journal says. Shown only when photos are on
 * (screen settings); fetched once per NSR while the panel is open.
 */
import type { PunchPhotoView } from '../../../src/contract.js';
import { h, setData } from '../dom.js';
import { t } from '../i18n.js';
import type { AdminCalls } from './admin-common.js';
import type { Ctx } from './view.js';

export class PhotoSlots {
  readonly #views = new Map<number, Promise<PunchPhotoView | null>>();

  constructor(
    private readonly calls: AdminCalls,
    private readonly ctx: Ctx,
  ) {}

  /** Photos are on here: the slots are drawn. */
  get on(): boolean {
    return this.ctx.settings?.photo !== undefined;
  }

  /** The slot of punch `nsr` (null with photos off or no NSR): filled when its photo arrives. */
  slot(nsr: number | null | undefined): HTMLElement | null {
    if (!this.on || typeof nsr !== 'number') return null;
    const el = h('figure', {
      class: 'punch-photo',
      testid: 'punch-photo',
      data: { nsr: String(nsr), state: 'loading' },
    });
    void this.#view(nsr).then((v) => this.#fill(el, nsr, v));
    return el;
  }

  #view(nsr: number): Promise<PunchPhotoView | null> {
    let p = this.#views.get(nsr);
    if (!p) {
      p = this.calls('punchPhotoView', { nsr }).then((r) => (r?.ok ? r.value : null));
      this.#views.set(nsr, p);
    }
    return p;
  }

  #fill(el: HTMLElement, nsr: number, v: PunchPhotoView | null): void {
    const lang = this.ctx.lang;
    const state = v?.state ?? 'none';
    setData(el, 'state', state);
    if (v?.jpeg) {
      const img = h('img', {
        attrs: {
          alt: t(lang, 'photo.alt', { nsr: String(nsr).padStart(9, '0') }),
          src: `data:image/jpeg;base64,${v.jpeg}`,
        },
      });
      el.replaceChildren(img);
      return;
    }
    el.replaceChildren(
      h('figcaption', { class: 'muted', text: t(lang, `photo.state.${state === 'photo' ? 'none' : state}`) }),
    );
  }
}
