import { describe, expect, it } from 'vitest';
import type { Lang } from '../src/i18n.js';
import { LANGUAGE_IDLE_MS, LanguageChoice, languageIdleMs, nextLang, type Timers } from '../src/language.js';

/** Timers a test steps by hand: `advance(ms)` runs what falls due, in order. */
function fakeTimers(): Timers & { advance(ms: number): void; pending(): number } {
  let now = 0;
  let seq = 0;
  const due = new Map<number, { at: number; run: () => void }>();
  return {
    set: (run, ms) => {
      seq += 1;
      due.set(seq, { at: now + ms, run });
      return seq;
    },
    clear: (h) => void due.delete(h as number),
    pending: () => due.size,
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const next = [...due.entries()].sort((a, b) => a[1].at - b[1].at)[0];
        if (!next || next[1].at > end) break;
        due.delete(next[0]);
        now = next[1].at;
        next[1].run();
      }
      now = end;
    },
  };
}

function setUp(site: Lang = 'pt-BR', idle = true) {
  const timers = fakeTimers();
  const changes: Lang[] = [];
  const state = { idle };
  const choice = new LanguageChoice({ isIdle: () => state.idle, changed: (l) => changes.push(l), timers });
  choice.setSite(site);
  return { timers, changes, state, choice };
}

describe('the language button', () => {
  it('cycles pt-BR → es → en → pt-BR', () => {
    expect(nextLang('pt-BR')).toBe('es');
    expect(nextLang('es')).toBe('en');
    expect(nextLang('en')).toBe('pt-BR');
    const { choice, changes } = setUp();
    expect(choice.lang).toBe('pt-BR');
    expect([choice.cycle(), choice.cycle(), choice.cycle()]).toEqual(['es', 'en', 'pt-BR']);
    expect(changes).toEqual(['es', 'en', 'pt-BR']);
  });

  it('starts from the site’s language, whichever it is', () => {
    const { choice } = setUp('es');
    expect(choice.lang).toBe('es');
    expect(choice.cycle()).toBe('en');
    expect(choice.cycle()).toBe('pt-BR');
  });

  it('reverts to the site’s language after the idle timeout with nobody touching the screen', () => {
    const { choice, timers, changes } = setUp();
    choice.cycle();
    timers.advance(LANGUAGE_IDLE_MS - 1);
    expect(choice.lang).toBe('es');
    timers.advance(1);
    expect(choice.lang).toBe('pt-BR');
    expect(changes).toEqual(['es', 'pt-BR']);
    expect(timers.pending()).toBe(0);
  });

  it('a key or a touch starts the timeout again', () => {
    const { choice, timers } = setUp();
    choice.cycle();
    choice.cycle();
    timers.advance(LANGUAGE_IDLE_MS - 1_000);
    choice.activity();
    timers.advance(LANGUAGE_IDLE_MS - 1_000);
    expect(choice.lang).toBe('en');
    timers.advance(1_000);
    expect(choice.lang).toBe('pt-BR');
  });

  it('waits while someone is typing on the keypad, and reverts once the idle screen is back', () => {
    const { choice, timers, state } = setUp();
    choice.cycle();
    state.idle = false;
    timers.advance(LANGUAGE_IDLE_MS * 3);
    expect(choice.lang).toBe('es');
    state.idle = true;
    timers.advance(LANGUAGE_IDLE_MS);
    expect(choice.lang).toBe('pt-BR');
  });

  it('reverts at once when a punch is done, and no timer is left behind', () => {
    const { choice, timers, changes } = setUp();
    choice.cycle();
    expect(choice.revert()).toBe(true);
    expect(choice.lang).toBe('pt-BR');
    expect(timers.pending()).toBe(0);
    expect(choice.revert()).toBe(false);
    timers.advance(LANGUAGE_IDLE_MS * 2);
    expect(changes).toEqual(['es']);
  });

  it('back on the site’s language by the button: nothing to revert, no timer', () => {
    const { choice, timers } = setUp();
    choice.cycle();
    choice.cycle();
    choice.cycle();
    expect(choice.lang).toBe('pt-BR');
    expect(timers.pending()).toBe(0);
    choice.activity();
    expect(timers.pending()).toBe(0);
  });

  it('the timeout is 30 s at the default 4 s result, and follows the configured result time', () => {
    expect(languageIdleMs(4_000)).toBe(30_000);
    expect(languageIdleMs(undefined)).toBe(LANGUAGE_IDLE_MS);
    expect(languageIdleMs(1_000)).toBe(7_500);
    const { choice, timers } = setUp();
    choice.setSite('en', 7_500);
    choice.cycle();
    timers.advance(7_500);
    expect(choice.lang).toBe('en');
  });
});
