/**
 * The controller: owns the state, feeds the state machine (keys, answers, events, timers), carries
 * out its effects through the bridge client, and draws the current screen.
 */
import type {
  CallInput,
  CallName,
  CallResult,
  PunchEventView,
  ScreenSettings,
  StatusView,
} from '../../src/contract.js';
import type { Client } from './bridge.js';
import { AgentContact } from './agent-contact.js';
import { isQueued } from './connection.js';
import { effectiveTimeZone } from './format.js';
import { punchText, t, type Lang } from './i18n.js';
import { installKeyboard } from './keyboard.js';
import { LanguageChoice, languageIdleMs } from './language.js';
import { initialModel, screenName, step, type Effect, type Event, type Model, type Shown } from './machine.js';
import type { AdminView } from './screens/admin.js';
import { OwnRequests } from './own-requests.js';
import type { Ctx, View } from './screens/view.js';
import { viewFor } from './screens/view-for.js';
import { Sounds } from './sound.js';
import { screenTimeoutMs, waitsForInput } from './screen-timeouts.js';
import { Camera } from './camera.js';
import { photoNsrOf, sendPhoto } from './punch-photo.js';
import { punchCallOf, type PunchCall } from './punch-calls.js';

export class App {
  #model: Model = initialModel();
  readonly #language = new LanguageChoice({
    isIdle: () => screenName(this.#model) === 'idle',
    changed: () => this.#render(),
  });
  get #lang(): Lang {
    return this.#language.lang;
  }
  #status: StatusView | null = null;
  #settings: ScreenSettings | null = null;
  #view: View | null = null;
  #viewKey = '';
  #viewScreen: Model['screen'] | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #timedScreen: Model['screen'] | null = null;
  #adminInFlight = 0;
  readonly #own = new OwnRequests();
  readonly #agent: AgentContact;
  readonly #sounds = new Sounds();
  /** Issue 31: the camera, with photo.mode on-punch. */
  #camera: Camera | null = null;

  constructor(
    private readonly client: Client,
    private readonly root: HTMLElement,
  ) {
    this.#agent = new AgentContact(client, {
      status: (s) => {
        this.#status = s;
        this.#render();
      },
      reachable: () => this.#model.reachable,
      setReachable: (reachable) => this.dispatch({ type: 'reachable', reachable }),
    });
  }

  start(): void {
    this.#render();
    this.client.on('status', (s) => {
      this.#status = s;
      this.#contact(true);
      this.#render();
    });
    this.client.on('punch', (r) => this.#onPunchEvent(r));
    this.client.onLink((up) => this.#contact(up));
    document.addEventListener('pointerdown', () => this.#activity(), { capture: true });
    // The idle clock shows seconds: tick just after each second turns, not every 1 000 ms from
    // whenever the page loaded (which would show a second twice or skip one).
    const tick = () => {
      if (screenName(this.#model) === 'idle') this.#view?.update(this.#ctx());
      setTimeout(tick, 1_000 - (Date.now() % 1_000) + 5);
    };
    tick();
    void this.#load();
  }

  // ---- talking to the agent ----------------------------------------------------------------------

  async #load(): Promise<void> {
    const [settings, status] = await Promise.all([
      this.client.call('screenSettings', {}),
      this.client.call('status', {}),
    ]);
    if (!settings.ok || !status.ok) {
      this.#contact(false);
      setTimeout(() => void this.#load(), AgentContact.RETRY_MS);
      return;
    }
    this.#settings = settings.value;
    this.#status ??= status.value;
    this.#language.setSite(settings.value.language, languageIdleMs(settings.value.resultMs));
    this.#contact(true);
    if (settings.value.photo && !this.#camera) {
      this.#camera = new Camera(settings.value.photo, (s) => void this.client.call('cameraState', s));
      void this.#camera.open();
    }
    installKeyboard(settings.value.wedge, {
      scan: (code) => this.dispatch({ type: 'scan', code }),
      typed: (key) => this.#typed(key),
      activity: () => this.#activity(),
    });
    this.dispatch({
      type: 'ready',
      settings: {
        pinRequiredFor: settings.value.pinRequiredFor,
        adminEnabled: settings.value.adminEnabled,
        pinShowName: settings.value.pinShowName,
      },
    });
    this.#agent.startPolling();
  }

  /** Any sign of the agent (true) or of its absence (false). */
  #contact(up: boolean): void {
    this.#agent.contact(up);
  }

  #onPunchEvent(r: PunchEventView): void {
    this.#contact(true);
    // The echo of this screen's own call: its answer is what the screen shows.
    if (this.#own.isOwn(r.requestId)) return;
    // A reader's punch the screen did not ask for: its frame is the one of now.
    const nsr = photoNsrOf(r);
    if (this.#camera && nsr !== null) sendPhoto(this.client, nsr, this.#camera.frame());
    this.dispatch({ type: 'punchEvent', result: r, queued: isQueued(this.#status) });
  }

  /**
   * A punch call of the screen's own, with a fresh requestId; its answer goes to the machine, its event (same id) is
   * not shown.
   */
  async #punch({ call, credential }: PunchCall): Promise<void> {
    const asked = call(this.#own.next());
    // The frame of the scan's instant, copied once the call is on its way: the answer never waits for it.
    const shot = this.#camera?.frame() ?? null;
    const r = await asked;
    const nsr = r.ok ? photoNsrOf(r.value) : null;
    if (r.ok) this.dispatch({ type: 'punchAnswer', credential, result: r.value, queued: isQueued(this.#status) });
    else this.dispatch({ type: 'punchFailed', message: r.error.message });
    if (shot && nsr !== null) sendPhoto(this.client, nsr, shot);
  }

  readonly #adminCalls = async <N extends CallName>(name: N, input: CallInput<N>): Promise<CallResult<N> | null> => {
    this.#adminInFlight += 1;
    try {
      const r = await this.client.call(name, input);
      if (!r.ok && r.error.code === 'forbidden') {
        this.dispatch({ type: 'sessionExpired' });
        return null;
      }
      return r;
    } finally {
      this.#adminInFlight -= 1;
      this.#armTimer(true);
    }
  };

  // ---- the state machine ------------------------------------------------------------------------

  dispatch(event: Event): void {
    const before = screenName(this.#model);
    const { model, effects } = step(this.#model, event);
    this.#model = model;
    // A punch's result ends one person's turn: the next one finds the terminal's own language.
    if (before === 'result' && screenName(model) === 'idle') this.#language.revert();
    for (const e of effects) this.#run(e);
    this.#armTimer(false);
    this.#render();
  }

  #run(e: Effect): void {
    const punch = punchCallOf(this.client, e);
    if (punch) {
      void this.#punch(punch);
      return;
    }
    switch (e.type) {
      case 'adminLogin':
        void this.client.call('adminLogin', { pin: e.pin }).then((r) => {
          if (r.ok)
            this.dispatch({
              type: 'adminLoginAnswer',
              ok: r.value.ok,
              code: r.value.code,
              ...(r.value.lockedForMs === undefined ? {} : { lockedForMs: r.value.lockedForMs }),
              ...(r.value.role ? { role: r.value.role } : {}),
            });
          else this.dispatch({ type: 'adminLoginFailed', message: r.error.message });
        });
        return;
      case 'lock':
        void this.client.call('lock', {});
        return;
      case 'sound':
        this.#sounds.play(e.sound);
        return;
      case 'adminNotice':
        this.#adminNotice(e.shown);
        return;
    }
  }

  #adminNotice(shown: Shown): void {
    const view = this.#view as AdminView | null;
    if (!view || screenName(this.#model) !== 'admin') return;
    const r = shown.result;
    if (!r) view.notice(t(this.#lang, 'reason.no_answer'), 'error');
    else if (r.ok)
      view.notice(t(this.#lang, 'admin.notice.punch', { name: r.employeeName ?? '?', time: r.localTime }), 'ok');
    else view.notice(t(this.#lang, 'admin.notice.refused', { message: punchText(this.#lang, r) }), 'error');
  }

  #typed(key: string): void {
    this.#activity();
    if (this.#view?.key?.(key)) return;
    this.dispatch({ type: 'key', key });
  }

  #activity(): void {
    this.#language.activity();
    this.#armTimer(true);
  }

  /** The current screen's own timer: restarted when the screen changes, and on activity where input is awaited. */
  #armTimer(activity: boolean): void {
    const s = this.#model.screen;
    const name = screenName(this.#model);
    const changed = s !== this.#timedScreen;
    if (!changed && !(activity && waitsForInput(name))) return;
    this.#timedScreen = s;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const ms = screenTimeoutMs(name, s, this.#settings);
    if (ms === null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (name === 'admin' && this.#adminInFlight > 0) return this.#armTimer(true);
      if (this.#model.screen === s || (name !== 'result' && screenName(this.#model) === name))
        this.dispatch({ type: 'timeout' });
    }, ms);
  }

  // ---- drawing ----------------------------------------------------------------------------------

  #ctx(): Ctx {
    return {
      lang: this.#lang,
      model: this.#model,
      status: this.#status,
      settings: this.#settings,
      timeZone: effectiveTimeZone(this.#status?.site?.timezone),
      // The service's time, as the punches record it: the terminal's clock may be wrong.
      now: Date.now() + correctionOf(this.#status?.clockSkewMs ?? null),
      dispatch: (e) => this.dispatch(e),
      toggleLanguage: () => this.#language.cycle(),
    };
  }

  #render(): void {
    const ctx = this.#ctx();
    const name = screenName(ctx.model);
    // The keypad screens share one look; a PIN step after the ID keypad is still a new screen.
    const key = `${name}|${this.#lang}`;
    const fresh = key !== this.#viewKey || (name === 'result' && this.#viewScreen !== ctx.model.screen);
    if (fresh || !this.#view) {
      this.#view?.destroy?.();
      const view = viewFor(name, ctx, { calls: this.#adminCalls, lock: () => this.dispatch({ type: 'lock' }) });
      this.#view = view;
      this.#viewKey = key;
      this.root.replaceChildren(view.el);
      document.documentElement.lang = this.#lang;
      document.title = t(this.#lang, 'app.title');
    }
    this.#viewScreen = ctx.model.screen;
    document.body.dataset.screen = name;
    this.#view.update(ctx);
  }
}

/** The agent's measure of this machine's clock error (service minus wall): below a second, none. */
function correctionOf(skewMs: number | null): number {
  return skewMs !== null && Math.abs(skewMs) >= 1_000 ? skewMs : 0;
}
