/**
 * The page's one way to the agent: Electron's preload (`window.kiosk`) when present, else the web
 * bridge (POST /api/<call>, events over SSE). Every answer and event is checked against the
 * contract; a network failure, a timeout or an answer outside the contract becomes
 * `{ok:false, error:{code:'internal'}}`. Nothing here throws to the caller.
 */
import type { z } from 'zod';
import {
  callResultSchema,
  events,
  SCREEN_CODE_PATH,
  screenCodeAnswerSchema,
  type Bridge,
  type CallInput,
  type CallName,
  type CallResult,
  type EventName,
  type EventPayload,
} from '../../src/contract.js';

declare global {
  interface Window {
    kiosk?: Bridge;
  }
}

export type Client = {
  call<N extends CallName>(name: N, input: CallInput<N>): Promise<CallResult<N>>;
  on<E extends EventName>(event: E, fn: (payload: EventPayload<E>) => void): () => void;
  /** The event stream's health: true on (re)connect and on every event, false on an error. */
  onLink(fn: (up: boolean) => void): () => void;
};

const TOKEN_KEY = 'timeclock-kiosk.token';
const EVENT_NAMES = Object.keys(events) as EventName[];

/** How long a call may take before the page gives up on it (ms); null: as long as it takes. */
function timeoutFor(name: CallName): number | null {
  switch (name) {
    case 'syncRoster':
      return null; // many pages, paced by the rate limit
    case 'auditCompare':
      return null; // a request per employee and run of days, after punches and roster pages
    case 'enrollNextScan':
      return 130_000; // waits for the badge (at most 120 s)
    case 'exportAfd':
      return 300_000; // years of marks, written a page at a time
    case 'status':
    case 'screenSettings':
      return 8_000;
    default:
      return 30_000;
  }
}

export function internalError(message: string): { ok: false; error: { code: 'internal'; message: string } } {
  return { ok: false, error: { code: 'internal', message } };
}

function check<N extends CallName>(name: N, raw: unknown): CallResult<N> {
  const parsed = callResultSchema(name).safeParse(raw);
  return parsed.success ? parsed.data : internalError(`answer to ${name} is outside the contract`);
}

function parseEvent<E extends EventName>(event: E, raw: unknown): EventPayload<E> | null {
  const parsed = (events[event] as unknown as z.ZodType<EventPayload<E>>).safeParse(raw);
  return parsed.success ? parsed.data : null;
}

type Listeners = { [E in EventName]: Set<(payload: EventPayload<E>) => void> };

class Hub {
  readonly listeners: Listeners = { punch: new Set(), status: new Set() };
  readonly link = new Set<(up: boolean) => void>();

  emit<E extends EventName>(event: E, raw: unknown): void {
    const payload = parseEvent(event, raw);
    if (payload === null) {
      console.warn(`kiosk: ${event} event outside the contract, ignored`);
      return;
    }
    this.setLink(true);
    for (const fn of this.listeners[event] as Set<(p: EventPayload<E>) => void>) fn(payload);
  }

  setLink(up: boolean): void {
    for (const fn of this.link) fn(up);
  }

  on<E extends EventName>(event: E, fn: (payload: EventPayload<E>) => void): () => void {
    const set = this.listeners[event] as Set<(p: EventPayload<E>) => void>;
    set.add(fn);
    return () => set.delete(fn);
  }

  onLink(fn: (up: boolean) => void): () => void {
    this.link.add(fn);
    return () => this.link.delete(fn);
  }
}

function electronClient(kiosk: Bridge): Client {
  const hub = new Hub();
  for (const name of EVENT_NAMES) {
    try {
      kiosk.on(name, (payload) => hub.emit(name, payload));
    } catch (e) {
      console.warn(`kiosk: cannot listen to ${name}: ${String(e)}`);
    }
  }
  return {
    async call(name, input) {
      const fn = kiosk[name] as unknown as (i: unknown) => Promise<unknown>;
      const limit = timeoutFor(name);
      try {
        const answer = fn(input);
        const raw = limit === null ? await answer : await Promise.race([answer, delay(limit).then(() => TIMED_OUT)]);
        if (raw === TIMED_OUT) return internalError(`${name} did not answer in time`);
        return check(name, raw);
      } catch (e) {
        return internalError(`${name} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
    on: (event, fn) => hub.on(event, fn),
    onLink: (fn) => hub.onLink(fn),
  };
}

const TIMED_OUT = Symbol('timed out');
const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Kept for this tab only, so a reload of the page still works. */
function keepToken(token: string): void {
  try {
    sessionStorage.setItem(TOKEN_KEY, token);
  } catch {
    // storage refused: the token still works until the next reload
  }
}

/**
 * The session token: from `?t=` on first load (then kept in sessionStorage so a reload works, and
 * taken out of the address bar), else from sessionStorage.
 */
export function takeToken(): string {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('t');
  if (fromUrl) {
    keepToken(fromUrl);
    url.searchParams.delete('t');
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? '';
  } catch {
    return '';
  }
}

function webClient(token: string): Client {
  const hub = new Hub();
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;

  const connect = (): void => {
    retry = null;
    const es = new EventSource(`/api/events?t=${encodeURIComponent(token)}`);
    source = es;
    es.addEventListener('open', () => hub.setLink(true));
    es.addEventListener('error', () => {
      hub.setLink(false);
      // EventSource retries by itself unless the server answered with an error status: then start over.
      if (es.readyState === EventSource.CLOSED && source === es && retry === null) retry = setTimeout(connect, 3_000);
    });
    for (const name of EVENT_NAMES) {
      es.addEventListener(name, (e) => {
        let raw: unknown;
        try {
          raw = JSON.parse((e as MessageEvent<string>).data);
        } catch {
          console.warn(`kiosk: ${name} event is not JSON, ignored`);
          return;
        }
        hub.emit(name, raw);
      });
    }
  };
  connect();

  return {
    async call(name, input) {
      const limit = timeoutFor(name);
      const abort = new AbortController();
      const timer = limit === null ? null : setTimeout(() => abort.abort(), limit);
      try {
        const res = await fetch(`/api/${name}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-kiosk-token': token },
          body: JSON.stringify(input),
          signal: abort.signal,
          cache: 'no-store',
        });
        let raw: unknown;
        try {
          raw = await res.json();
        } catch {
          return internalError(`${name}: answer is not JSON (HTTP ${res.status})`);
        }
        return check(name, raw);
      } catch (e) {
        return internalError(
          abort.signal.aborted
            ? `${name} did not answer in time`
            : `${name}: no answer from the terminal (${e instanceof Error ? e.message : String(e)})`,
        );
      } finally {
        if (timer !== null) clearTimeout(timer);
      }
    },
    on: (event, fn) => hub.on(event, fn),
    onLink: (fn) => hub.onLink(fn),
  };
}

/** The web bridge's session token (null under Electron): what a download from the bridge sends. */
let webSessionToken: string | null = null;
export const webToken = (): string | null => webSessionToken;

/**
 * The page's client: Electron's preload, else the web bridge with the session token, first traded
 * for the one-time code in `?c=` when the page was opened with one (the browser the terminal started).
 */
export async function connectClient(): Promise<Client> {
  const kiosk = window.kiosk;
  if (kiosk) return electronClient(kiosk);
  webSessionToken = (await tokenFromCode()) ?? takeToken();
  return webClient(webSessionToken);
}

/**
 * The token for the one-time code in `?c=` (src/contract/screen-code.ts), asked once: the code is
 * taken out of the address bar first, so a reload uses the kept token instead of a spent code.
 */
async function tokenFromCode(): Promise<string | null> {
  const url = new URL(window.location.href);
  const code = url.searchParams.get('c');
  if (!code) return null;
  url.searchParams.delete('c');
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  try {
    const res = await fetch(SCREEN_CODE_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
      cache: 'no-store',
    });
    const answer = screenCodeAnswerSchema.safeParse(await res.json());
    if (!answer.success) {
      console.warn(`kiosk: the screen's one-time code was refused (HTTP ${res.status})`);
      return null;
    }
    keepToken(answer.data.token);
    return answer.data.token;
  } catch (e) {
    console.warn(`kiosk: the screen's one-time code could not be traded: ${String(e)}`);
    return null;
  }
}
