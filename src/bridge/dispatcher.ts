/**
 * One dispatcher for every bridge call and event (docs/DESIGN.md "Floors"): the input checked against
 * src/contract.ts, the admin gate, the call through the agent's handlers, the answer checked
 * against the contract, and every agent event checked before it leaves. The transports (Electron
 * IPC in src/main/ipc-bridge.ts, loopback HTTP in src/web/web-bridge.ts) keep only who is asking
 * and the framing. Every refusal is a typed result, never a throw, so the screen's call never
 * rejects. No input, PIN or token is ever logged: only call names and where an input was wrong.
 */
import type { z } from 'zod';
import { roleMay, roleMayCall } from '../agent/identity/shift-lead.js';
import {
  AdminSession,
  agentHandlers,
  LoginGuard,
  type AdminPin,
  type BridgeAgent,
  type Handlers,
} from '../agent/bridge-handlers.js';
import {
  calls,
  events,
  type BridgeError,
  type CallName,
  type ErrorCode,
  type EventName,
  type EventPayload,
  type ScreenSettings,
} from '../contract.js';
import { SERVICE_TEXT_MAX } from '../contract/common.js';
import type { Clock } from '../domain/time/clock.js';
import { clipStrings } from '../domain/people/long-text.js';
import { silentLogger, type Logger } from '../log.js';
import { salvagePunchEvent, salvagePunchResult } from './punch-fallback.js';
import { requestIdOf, stampRequestId, withRequestId } from './request-id.js';

/** What every transport is started with, besides its own framing. */
export type DispatcherOptions = {
  agent: BridgeAgent;
  /** null: admin login is refused (no admin calls on this terminal). */
  adminPin: AdminPin | null;
  /** What the screen is told by `screenSettings` (language, wedge timing, PIN rules). */
  screen?: ScreenSettings;
  adminIdleMs?: number;
  clock?: Clock;
  log?: Logger;
};

/**
 * Who is asking, as its transport knows it: the admin session its calls are gated by, and the transport's name in the
 * logs.
 */
export type Caller = { session: AdminSession; via: string };

/**
 * The input as the transport framed it, or the transport's own refusal (an HTTP 415, say), handed
 * back as it is. Read only once the admin gate has let the call through, as both transports did.
 */
export type Framed<F> = { input: unknown } | { refused: F };

export type Answer = { ok: true; value: unknown } | BridgeError;

/** Where a subscriber's events go (an IPC channel, an event stream): already checked against the contract. */
export type EventSink = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

export type Dispatcher = {
  /**
   * A closed admin session for one client (a window's renderer under IPC, a browser's cookie on the web); wrong PINs
   * count across all of them.
   */
  newSession(): AdminSession;
  dispatch<F>(
    name: CallName,
    read: () => Framed<F> | Promise<Framed<F>>,
    caller: Caller,
  ): Promise<Answer | { refused: F }>;
  /**
   * Forwards the agent's events to `sink` until the returned function is called; `statusNow`: the current status at
   * once.
   */
  subscribe(sink: EventSink, opts?: { statusNow?: boolean }): () => void;
};

export type Issue = { path: (string | number)[]; message: string };

export function refusal(code: ErrorCode, message: string, issues?: Issue[]): BridgeError {
  return { ok: false, error: { code, message, ...(issues ? { issues } : {}) } };
}

/** Paths and messages only: never the value that was wrong (it may be a PIN or a token). */
function issuesOf(error: z.ZodError): Issue[] {
  return error.issues.map((i) => ({
    path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    message: i.message,
  }));
}

const issueLines = (error: z.ZodError): string[] => issuesOf(error).map((i) => `${i.path.join('.')}: ${i.message}`);

/**
 * The calls that answer with a punch's result: when it does not fit, the punch's facts still go back
 * (punch-fallback.ts).
 */
const PUNCH_CALLS: ReadonlySet<CallName> = new Set<CallName>(['punch', 'badgeScan', 'answerPin', 'forgotPin']);

export function createDispatcher(opts: DispatcherOptions): Dispatcher {
  const { agent } = opts;
  const log = opts.log ?? silentLogger;
  const clock = opts.clock ?? { now: () => Date.now() };
  const adminIdleMs = opts.adminIdleMs ?? 120_000;

  /**
   * Strings from the service are any length: those beyond the memory bound are cut here, before the
   * check, so the bound can never fail an answer. Said with where, never what.
   */
  function clipped(value: unknown, what: Record<string, string>): unknown {
    const cut: string[] = [];
    const out = clipStrings(value, SERVICE_TEXT_MAX, cut);
    if (cut.length > 0)
      log.warn(`text over ${SERVICE_TEXT_MAX} characters cut for the screen`, {
        ...what,
        fields: cut.slice(0, 10).join(', '),
      });
    return out;
  }
  // `adminLogin`, `lock` and `screenSettings` answer for the caller's own session.
  const handlersBySession = new WeakMap<AdminSession, Handlers>();
  const handlersOf = (session: AdminSession): Handlers => {
    let h = handlersBySession.get(session);
    if (!h) handlersBySession.set(session, (h = agentHandlers(agent, session, opts.screen)));
    return h;
  };

  /** Handler and schema are looked up by the same name, so the input already has that call's type. */
  function invoke(handlers: Handlers, name: CallName, input: unknown): Promise<unknown> | unknown {
    const fn = handlers[name] as (i: unknown) => Promise<unknown> | unknown;
    return fn(input);
  }

  async function dispatch<F>(
    name: CallName,
    read: () => Framed<F> | Promise<Framed<F>>,
    caller: Caller,
  ): Promise<Answer | { refused: F }> {
    const spec = calls[name];
    if (spec.admin && !caller.session.touch()) return refusal('forbidden', 'admin session required');
    if (spec.admin && !roleMayCall(caller.session.role, name)) return refusal('forbidden', 'not for a shift lead');
    const framed = await read();
    if ('refused' in framed) return framed;
    const input = spec.input.safeParse(framed.input);
    if (!input.success) return refusal('bad_request', `input does not fit the ${name} call`, issuesOf(input.error));
    // A shift lead's session: held punches to confirm and PINs to reset, nothing else (agent/identity/shift-lead.ts).
    if (spec.admin && !roleMay(caller.session.role, name, input.data, agent))
      return refusal('forbidden', 'not for a shift lead');
    let output: unknown;
    try {
      output = await withRequestId(requestIdOf(input.data), () => invoke(handlersOf(caller.session), name, input.data));
    } catch (e) {
      log.error(`${caller.via} call failed`, { call: name, error: (e as Error).message });
      return refusal('internal', 'the call failed');
    }
    const bounded = clipped(output, { call: name });
    const checked = spec.output.safeParse(bounded);
    if (!checked.success) {
      // A punch is stored before it is answered: the screen gets its facts, never "not registered".
      const salvaged = PUNCH_CALLS.has(name) ? salvagePunchResult(bounded) : null;
      if (salvaged) {
        log.error(`${caller.via} punch answer outside the contract: sent with what fits`, {
          call: name,
          issues: issueLines(checked.error),
          dropped: salvaged.dropped.join(', '),
        });
        return { ok: true, value: salvaged.value };
      }
      log.error(`${caller.via} call answered outside the contract`, { call: name, issues: issueLines(checked.error) });
      return refusal('internal', 'the call failed');
    }
    return { ok: true, value: checked.data };
  }

  function subscribe(sink: EventSink, o: { statusNow?: boolean } = {}): () => void {
    const forward = <E extends EventName>(name: E, payload: unknown): void => {
      const bounded = clipped(name === 'punch' ? stampRequestId(payload) : payload, { event: name });
      const checked = (events[name] as z.ZodType).safeParse(bounded);
      if (checked.success) return sink(name, checked.data as EventPayload<E>);
      const salvaged = name === 'punch' ? salvagePunchEvent(bounded) : null;
      if (salvaged) {
        log.error('punch event outside the contract: sent with what fits', {
          event: name,
          issues: issueLines(checked.error),
          dropped: salvaged.dropped.join(', '),
        });
        return sink(name, salvaged.value as EventPayload<E>);
      }
      log.error('agent event outside the contract, not sent', { event: name, issues: issueLines(checked.error) });
    };
    const offs = [agent.on('punch', (p) => forward('punch', p)), agent.on('status', (s) => forward('status', s))];
    if (o.statusNow) {
      // The screen draws its status bar at once instead of waiting for the next change.
      try {
        forward('status', agent.status());
      } catch (e) {
        log.warn('status for a new event stream failed', { error: (e as Error).message });
      }
    }
    return () => {
      for (const off of offs) off();
    };
  }

  // One count of wrong manager PINs for every client of this bridge: a new client is not a new allowance.
  const guard = new LoginGuard();
  return {
    newSession: () => new AdminSession({ adminPin: opts.adminPin, idleMs: adminIdleMs, clock, guard }),
    dispatch,
    subscribe,
  };
}
