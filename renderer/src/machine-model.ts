/**
 * The shapes of the screen machine (machine.ts): the screens, the model it steps, the events it is
 * fed and the effects it asks the controller to carry out.
 */
import type { AdminLoginCode, PunchResultView, ScreenSettings } from '../../src/contract.js';
import type { PinError } from './pin-step.js';

export type Credential = { kind: 'badge' | 'id'; value: string };

/**
 * What a PIN answers: the credential the screen itself submitted (resubmitted with the PIN), or
 * the agent's one-time challenge for a scan the screen only saw as an event (an HID reader's).
 */
export type PinFor = { credential: Credential } | { challenge: string };

export type AdminLoginError =
  | { kind: 'wrong' }
  | { kind: 'too_many'; lockedForMs?: number }
  | { kind: 'expired' }
  | { kind: 'no_admin_pin' }
  | { kind: 'disabled' }
  | { kind: 'other'; message: string };

/** A punch answer to show; `result: null` with `failure`: the call itself failed. */
export type Shown = { result: PunchResultView; queued: boolean } | { result: null; failure: string };

export type Screen =
  | { name: 'loading' }
  | { name: 'idle' }
  | { name: 'keypad'; value: string }
  | { name: 'pin'; value: string; for: PinFor; employeeName: string | null; error?: PinError }
  | { name: 'result'; shown: Shown }
  | { name: 'admin-login'; value: string; error: AdminLoginError | null }
  /** `role` lead: a shift lead's session (held punches to confirm, PINs to reset), drawn by screens/lead.ts. */
  | { name: 'admin'; role?: 'lead' };

export type ScreenName = Screen['name'] | 'offline-agent';

export type Model = {
  screen: Screen;
  /** screenSettings and a first status arrived. */
  ready: boolean;
  /** False: the agent has not answered for a while (the offline-agent screen shows). */
  reachable: boolean;
  /** A punch or admin login submitted from a keypad is waiting for its answer. */
  busy: boolean;
  settings: Pick<ScreenSettings, 'pinRequiredFor' | 'adminEnabled' | 'pinShowName'>;
};

export type Effect =
  | { type: 'punch'; credential: Credential; pin?: string }
  | { type: 'answerPin'; challenge: string; pin: string }
  /** "Esqueci meu PIN": the punch held for the manager (issue 29). */
  | { type: 'forgotPin'; for: PinFor }
  | { type: 'badgeScan'; code: string }
  | { type: 'adminLogin'; pin: string }
  | { type: 'lock' }
  | { type: 'sound'; sound: 'success' | 'error' }
  /** A punch result that came while the admin screen is open: shown in its message area. */
  | { type: 'adminNotice'; shown: Shown };

export type Event =
  | { type: 'ready'; settings: Model['settings'] }
  | { type: 'reachable'; reachable: boolean }
  | { type: 'openKeypad'; key?: string }
  | { type: 'openAdmin' }
  /** A key typed or touched: a character, or Backspace, Clear, Enter, Escape. */
  | { type: 'key'; key: string }
  | { type: 'scan'; code: string }
  /**
   * The answer to an own punch/badgeScan/answerPin call (null: the scan was already taken another
   * way). `credential`: what was submitted (null for an answerPin).
   */
  | { type: 'punchAnswer'; credential: Credential | null; result: PunchResultView | null; queued: boolean }
  | { type: 'punchFailed'; message: string }
  /** A `punch` event that is not the echo of the screen's own call. */
  | { type: 'punchEvent'; result: PunchResultView; queued: boolean }
  | { type: 'adminLoginAnswer'; ok: boolean; code: AdminLoginCode; lockedForMs?: number; role?: 'manager' | 'lead' }
  /** "Esqueci meu PIN" on the PIN step. */
  | { type: 'forgotPin' }
  | { type: 'adminLoginFailed'; message: string }
  /** An admin call answered `forbidden`: the session is gone. */
  | { type: 'sessionExpired' }
  | { type: 'lock' }
  /** The current screen's timer ran out (keypad inactivity, result shown long enough, admin idle). */
  | { type: 'timeout' }
  | { type: 'dismiss' };
