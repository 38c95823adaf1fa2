/** What every screen module builds, and what it is given to draw itself. */
import type { ScreenSettings, StatusView } from '../../../src/contract.js';
import type { Lang } from '../i18n.js';
import type { Event, Model } from '../machine.js';

export type Ctx = {
  lang: Lang;
  model: Model;
  status: StatusView | null;
  settings: ScreenSettings | null;
  /** The zone dates and times are shown in (undefined: the browser's). */
  timeZone: string | undefined;
  now: number;
  dispatch(event: Event): void;
  toggleLanguage(): void;
};

export type View = {
  el: HTMLElement;
  /** Redraw from the current state, in place (no rebuild: fields keep focus and what was typed). */
  update(ctx: Ctx): void;
  /** A typed key the screen handles itself; false: let the state machine have it. */
  key?(key: string): boolean;
  destroy?(): void;
};
