/**
 * The screen's language: the site's, or one an employee chose with the idle screen's button
 * (pt-BR → es → en → pt-BR). A choice lasts one person's turn: it reverts to the site's when a
 * punch's result is dismissed (the controller calls `revert`) and after the idle timeout with no
 * key or touch on the idle screen. Timers are injected so unit tests step them.
 */
import { LANGS, type Lang } from './i18n.js';

/** The idle timeout after which a chosen language reverts, for the default 4 s result (7.5 × resultMs). */
export const LANGUAGE_IDLE_MS = 30_000;

/** The idle timeout for a terminal whose results stay `resultMs`: 30 s at the default 4 s. */
export function languageIdleMs(resultMs: number | undefined): number {
  return resultMs === undefined ? LANGUAGE_IDLE_MS : Math.max(1_000, Math.round(resultMs * 7.5));
}

/** The language the button switches to: the next in the cycle pt-BR → es → en → pt-BR. */
export function nextLang(lang: Lang): Lang {
  return LANGS[(LANGS.indexOf(lang) + 1) % LANGS.length] ?? 'pt-BR';
}

export type Timers = {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
};

export const browserTimers: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export type LanguageOptions = {
  /** True while the idle screen shows: the timeout reverts only there (elsewhere it waits for idle). */
  isIdle(): boolean;
  /** The language changed by itself (the timeout): redraw. */
  changed(lang: Lang): void;
  timers?: Timers;
};

export class LanguageChoice {
  #site: Lang = 'pt-BR';
  #lang: Lang = 'pt-BR';
  #idleMs = LANGUAGE_IDLE_MS;
  #handle: unknown = null;

  constructor(private readonly o: LanguageOptions) {}

  get lang(): Lang {
    return this.#lang;
  }

  get site(): Lang {
    return this.#site;
  }

  /** The site's language (screen settings `language`) and the idle timeout: the screen speaks it from now. */
  setSite(lang: Lang, idleMs: number = LANGUAGE_IDLE_MS): void {
    this.#site = lang;
    this.#idleMs = idleMs;
    this.revert();
  }

  /** The button: the next language, kept until the idle timeout or the end of a punch. */
  cycle(): Lang {
    this.#lang = nextLang(this.#lang);
    this.#arm();
    this.o.changed(this.#lang);
    return this.#lang;
  }

  /** A key or a touch: the person is still there, the timeout starts again. */
  activity(): void {
    if (this.#handle !== null) this.#arm();
  }

  /** Back to the site's language (a punch's result dismissed). True when it changed. */
  revert(): boolean {
    this.#disarm();
    const changed = this.#lang !== this.#site;
    this.#lang = this.#site;
    return changed;
  }

  #arm(): void {
    this.#disarm();
    if (this.#lang === this.#site) return;
    const timers = this.o.timers ?? browserTimers;
    this.#handle = timers.set(() => {
      this.#handle = null;
      if (!this.o.isIdle()) return this.#arm();
      if (this.revert()) this.o.changed(this.#lang);
    }, this.#idleMs);
  }

  #disarm(): void {
    if (this.#handle === null) return;
    (this.o.timers ?? browserTimers).clear(this.#handle);
    this.#handle = null;
  }
}
