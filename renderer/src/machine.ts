/**
 * The employee screens and the way into administration, as a pure state machine: `step(model,
 * event)` returns the next model and the effects to run (calls, sounds). No DOM, no timers, no
 * bridge: the controller (app.ts) feeds it keys, answers and timeouts and carries out the effects.
 */
import type { AdminLoginCode, PunchResultView } from '../../src/contract.js';
import type {
  AdminLoginError,
  Credential,
  Effect,
  Event,
  Model,
  PinFor,
  Screen,
  ScreenName,
  Shown,
} from './machine-model.js';
import { pinRetry } from './pin-step.js';

export type {
  AdminLoginError,
  Credential,
  Effect,
  Event,
  Model,
  PinFor,
  Screen,
  ScreenName,
  Shown,
} from './machine-model.js';

export const MAX_ID_LENGTH = 32;
export const MAX_PIN_LENGTH = 8;
export const MAX_ADMIN_PIN_LENGTH = 64;

export function initialModel(): Model {
  return {
    screen: { name: 'loading' },
    ready: false,
    reachable: true,
    busy: false,
    settings: { pinRequiredFor: [], adminEnabled: false },
  };
}

/** What body[data-screen] says. */
export function screenName(m: Model): ScreenName {
  return m.reachable ? m.screen.name : 'offline-agent';
}

type Step = { model: Model; effects: Effect[] };

const IDLE: Screen = { name: 'idle' };
const isChar = (key: string): boolean => [...key].length === 1 && key.trim() !== '';
const isDigit = (key: string): boolean => /^[0-9]$/.test(key);
/** What an ID may contain: registration numbers, CPF (with its dots and dash), letters. */
const isIdChar = (key: string): boolean => /^[0-9A-Za-z.\-/]$/.test(key);

function soundFor(result: PunchResultView): 'success' | 'error' {
  if (result.ok) return 'success';
  if (result.reason === 'enrollment') return result.enrollment?.ok ? 'success' : 'error';
  return 'error';
}

function show(model: Model, shown: Shown): Step {
  const sound = shown.result ? soundFor(shown.result) : 'error';
  if (model.screen.name === 'admin')
    return {
      model: { ...model, busy: false },
      effects: [
        { type: 'adminNotice', shown },
        { type: 'sound', sound },
      ],
    };
  return { model: { ...model, busy: false, screen: { name: 'result', shown } }, effects: [{ type: 'sound', sound }] };
}

/** A typed value with one key applied (Backspace, Clear, or a character that `accept` allows). */
function edit(value: string, key: string, accept: (k: string) => boolean, max: number): string {
  if (key === 'Backspace') return [...value].slice(0, -1).join('');
  if (key === 'Clear') return '';
  if (accept(key) && [...value].length < max) return value + key;
  return value;
}

export function step(model: Model, event: Event): Step {
  const s = model.screen;
  const same: Step = { model, effects: [] };
  switch (event.type) {
    case 'ready':
      return {
        model: { ...model, ready: true, settings: event.settings, screen: s.name === 'loading' ? IDLE : s },
        effects: [],
      };
    case 'reachable':
      if (event.reachable === model.reachable) return same;
      // Whatever was being typed cannot be sent now; the terminal starts over when the agent is back.
      return {
        model: { ...model, reachable: event.reachable, busy: false, screen: model.ready ? IDLE : { name: 'loading' } },
        effects: [],
      };
    case 'openKeypad':
      if (!model.ready || !model.reachable || (s.name !== 'idle' && s.name !== 'result')) return same;
      return {
        model: { ...model, screen: { name: 'keypad', value: event.key && isIdChar(event.key) ? event.key : '' } },
        effects: [],
      };
    case 'openAdmin':
      if (!model.ready || !model.reachable || !model.settings.adminEnabled || s.name !== 'idle') return same;
      return { model: { ...model, screen: { name: 'admin-login', value: '', error: null } }, effects: [] };
    case 'key':
      return key(model, event.key);
    case 'scan':
      if (!model.ready) return same;
      return { model, effects: [{ type: 'badgeScan', code: event.code }] };
    case 'punchAnswer': {
      const r = event.result;
      if (r === null) return { model: { ...model, busy: false }, effects: [] };
      const retry = pinRetry(s, r);
      if (retry)
        return { model: { ...model, busy: false, screen: retry }, effects: [{ type: 'sound', sound: 'error' }] };
      const pinFor: PinFor | null =
        r.ok || r.reason !== 'pin_required'
          ? null
          : r.pinChallenge
            ? { challenge: r.pinChallenge }
            : event.credential
              ? { credential: event.credential }
              : null;
      if (pinFor && s.name !== 'admin') {
        return {
          model: {
            ...model,
            busy: false,
            screen: { name: 'pin', value: '', for: pinFor, employeeName: r.ok ? null : (r.employeeName ?? null) },
          },
          effects: [],
        };
      }
      // The manager's own enrollment scan: the enrollNextScan answer reports it on the admin screen.
      if (!r.ok && r.reason === 'enrollment' && s.name === 'admin') return { model, effects: [] };
      return show(model, { result: r, queued: event.queued });
    }
    case 'punchFailed':
      return show(model, { result: null, failure: event.message });
    case 'punchEvent': {
      if (!model.ready || !model.reachable) return same;
      const r = event.result;
      if (!r.ok && r.reason === 'enrollment' && s.name === 'admin') return same;
      // A reader's badge that needs a PIN: ask for it, unless someone is typing here right now.
      if (!r.ok && r.reason === 'pin_required' && r.pinChallenge && (s.name === 'idle' || s.name === 'result')) {
        return {
          model: {
            ...model,
            busy: false,
            screen: {
              name: 'pin',
              value: '',
              for: { challenge: r.pinChallenge },
              employeeName: r.employeeName ?? null,
            },
          },
          effects: [],
        };
      }
      return show(model, { result: event.result, queued: event.queued });
    }
    case 'adminLoginAnswer':
      if (s.name !== 'admin-login') return { model: { ...model, busy: false }, effects: [] };
      if (event.ok)
        return {
          model: {
            ...model,
            busy: false,
            screen: event.role === 'lead' ? { name: 'admin', role: 'lead' } : { name: 'admin' },
          },
          effects: [],
        };
      return {
        model: {
          ...model,
          busy: false,
          screen: { name: 'admin-login', value: '', error: loginError(event.code, event.lockedForMs) },
        },
        effects: [{ type: 'sound', sound: 'error' }],
      };
    case 'adminLoginFailed':
      if (s.name !== 'admin-login') return { model: { ...model, busy: false }, effects: [] };
      return {
        model: {
          ...model,
          busy: false,
          screen: { name: 'admin-login', value: '', error: { kind: 'other', message: event.message } },
        },
        effects: [],
      };
    case 'sessionExpired':
      if (s.name !== 'admin') return same;
      return {
        model: { ...model, screen: { name: 'admin-login', value: '', error: { kind: 'expired' } } },
        effects: [],
      };
    case 'lock':
      if (s.name !== 'admin' && s.name !== 'admin-login') return same;
      return { model: { ...model, busy: false, screen: IDLE }, effects: s.name === 'admin' ? [{ type: 'lock' }] : [] };
    case 'timeout':
      switch (s.name) {
        case 'keypad':
        case 'pin':
        case 'admin-login':
        case 'result':
          return { model: { ...model, busy: false, screen: IDLE }, effects: [] };
        case 'admin':
          return { model: { ...model, screen: IDLE }, effects: [{ type: 'lock' }] };
        default:
          return same;
      }
    case 'forgotPin':
      if (s.name !== 'pin' || model.busy) return same;
      return { model: { ...model, busy: true }, effects: [{ type: 'forgotPin', for: s.for }] };
    case 'dismiss':
      return s.name === 'result' ? { model: { ...model, screen: IDLE }, effects: [] } : same;
  }
}

function loginError(code: AdminLoginCode, lockedForMs: number | undefined): AdminLoginError {
  switch (code) {
    case 'too_many':
      return lockedForMs === undefined ? { kind: code } : { kind: code, lockedForMs };
    case 'no_admin_pin':
    case 'disabled':
      return { kind: code };
    default:
      return { kind: 'wrong' };
  }
}

function key(model: Model, k: string): Step {
  const s = model.screen;
  const same: Step = { model, effects: [] };
  switch (s.name) {
    case 'idle':
      return isChar(k) && isIdChar(k) ? step(model, { type: 'openKeypad', key: k }) : same;
    case 'result':
      if (isChar(k) && isIdChar(k)) return step({ ...model, screen: IDLE }, { type: 'openKeypad', key: k });
      return k === 'Enter' || k === 'Escape' ? { model: { ...model, screen: IDLE }, effects: [] } : same;
    case 'keypad': {
      if (k === 'Escape') return { model: { ...model, busy: false, screen: IDLE }, effects: [] };
      if (model.busy) return same;
      if (k === 'Enter') {
        const value = s.value.trim();
        if (value === '') return same;
        const credential: Credential = { kind: 'id', value };
        // Named PIN step: the agent's pin_required answer brings the name; unnamed: straight to the PIN.
        if (model.settings.pinRequiredFor.includes('id') && model.settings.pinShowName === false) {
          return {
            model: { ...model, screen: { name: 'pin', value: '', for: { credential }, employeeName: null } },
            effects: [],
          };
        }
        return { model: { ...model, busy: true }, effects: [{ type: 'punch', credential }] };
      }
      return { model: { ...model, screen: { ...s, value: edit(s.value, k, isIdChar, MAX_ID_LENGTH) } }, effects: [] };
    }
    case 'pin': {
      if (k === 'Escape') return { model: { ...model, busy: false, screen: IDLE }, effects: [] };
      if (model.busy) return same;
      if (k === 'Enter') {
        if (s.value === '') return same;
        const effect: Effect =
          'challenge' in s.for
            ? { type: 'answerPin', challenge: s.for.challenge, pin: s.value }
            : { type: 'punch', credential: s.for.credential, pin: s.value };
        return { model: { ...model, busy: true }, effects: [effect] };
      }
      return { model: { ...model, screen: { ...s, value: edit(s.value, k, isDigit, MAX_PIN_LENGTH) } }, effects: [] };
    }
    case 'admin-login': {
      if (k === 'Escape') return { model: { ...model, busy: false, screen: IDLE }, effects: [] };
      if (model.busy) return same;
      if (k === 'Enter') {
        if (s.value === '') return same;
        return { model: { ...model, busy: true }, effects: [{ type: 'adminLogin', pin: s.value }] };
      }
      return {
        model: { ...model, screen: { ...s, value: edit(s.value, k, isChar, MAX_ADMIN_PIN_LENGTH) } },
        effects: [],
      };
    }
    default:
      return same;
  }
}

/** The badge credential a wedge scan punches with (its PIN step resubmits it). */
export function badgeCredential(code: string): Credential {
  return { kind: 'badge', value: code };
}
