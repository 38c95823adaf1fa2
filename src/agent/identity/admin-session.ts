/**
 * The manager's admin session on a kiosk screen: opened by the admin PIN, kept alive by use, ended
 * by idleness, `lock` or `adminLogout`. Each client has its own (the web bridge keys them by a
 * cookie only that browser holds, the IPC bridge by the window's renderer), so a second program
 * that knows only the bridge's page token never rides on the manager's login.
 */
import type { AdminRole, CallOutput } from '../../contract.js';
import type { Clock } from '../../domain/time/clock.js';

/**
 * What the PIN check says: right, wrong, or refused unchecked because the PIN store holds a lockout for `lockedForMs`
 * more.
 */
export type AdminPinCheck = { ok: true; role?: AdminRole } | { ok: false; lockedForMs?: number };

/**
 * The manager's PIN: `isSet` false means none was ever set (the keypad says how to set one); without
 * it, one is assumed. `verify` answers an AdminPinCheck when it keeps its own lockout (the PIN store:
 * persisted, lifted by `timeclock pin unlock`), or a plain boolean, and then the bridge counts wrong
 * PINs itself (LoginGuard).
 */
export type AdminPin = { verify(pin: string): Promise<boolean | AdminPinCheck>; isSet?(): boolean };

/** Wrong PINs in a row before admin login is refused for a while (against guessing at the kiosk). */
const MAX_LOGIN_FAILURES = 5;
const LOGIN_LOCKOUT_MS = 60_000;

/**
 * Wrong manager PINs, counted once per bridge whichever client typed them: a new client (a new
 * session) does not start a fresh count.
 */
export class LoginGuard {
  failures = 0;
  lockedUntil = 0;
}

/** What an admin session is built from (bridge/dispatcher.ts). */
export type AdminSessionDeps = {
  adminPin: AdminPin | null;
  idleMs: number;
  clock: Clock;
  /** Failed logins, shared by every session of one bridge (default: this session alone). */
  guard?: LoginGuard;
};

export class AdminSession {
  private expiresAt: number | null = null;
  /** Who logged in: the manager, or a shift lead (agent/identity/shift-lead.ts limits what that one may call). */
  role: AdminRole = 'manager';

  private readonly adminPin: AdminPin | null;
  private readonly idleMs: number;
  private readonly clock: Clock;
  /** Failed logins, shared by every session of one bridge (default: this session alone). */
  private readonly guard: LoginGuard;

  constructor(d: AdminSessionDeps) {
    this.adminPin = d.adminPin;
    this.idleMs = d.idleMs;
    this.clock = d.clock;
    this.guard = d.guard ?? new LoginGuard();
  }

  /** False: no admin PIN verifier, so login is always refused. */
  get enabled(): boolean {
    return this.adminPin !== null;
  }

  /** True while open; unlike `touch`, does not restart the idle timer. */
  isOpen(): boolean {
    return this.expiresAt !== null && this.clock.now() < this.expiresAt;
  }

  /** True (and the idle timer restarted) while a session is open. */
  touch(): boolean {
    const now = this.clock.now();
    if (this.expiresAt === null || now >= this.expiresAt) {
      this.expiresAt = null;
      return false;
    }
    this.expiresAt = now + this.idleMs;
    return true;
  }

  async login(pin: string): Promise<CallOutput<'adminLogin'>> {
    if (!this.adminPin) return { ok: false, code: 'disabled' };
    if (this.adminPin.isSet?.() === false) return { ok: false, code: 'no_admin_pin' };
    const now = this.clock.now();
    if (now < this.guard.lockedUntil) return locked(this.guard.lockedUntil - now);
    const raw = await this.adminPin.verify(pin);
    const ownLockout = typeof raw !== 'boolean';
    const check: AdminPinCheck = ownLockout ? raw : raw ? { ok: true } : { ok: false };
    if (!check.ok) {
      this.expiresAt = null;
      // The PIN store's lockout (kept across restarts): the PIN was not even checked, so it is not "wrong".
      if (check.lockedForMs !== undefined && check.lockedForMs > 0) return locked(check.lockedForMs);
      // The store counts, and `timeclock pin unlock` clears its count: a second, in-memory one here would outlive the
      // unlock.
      if (ownLockout) return { ok: false, code: 'wrong_pin' };
      this.guard.failures += 1;
      if (this.guard.failures >= MAX_LOGIN_FAILURES) {
        this.guard.failures = 0;
        this.guard.lockedUntil = now + LOGIN_LOCKOUT_MS;
      }
      return { ok: false, code: 'wrong_pin' };
    }
    this.guard.failures = 0;
    this.role = check.role ?? 'manager';
    this.expiresAt = this.clock.now() + this.idleMs;
    return { ok: true, code: 'opened', expiresAt: this.expiresAt, role: this.role };
  }

  end(): void {
    this.expiresAt = null;
  }
}

const locked = (ms: number): CallOutput<'adminLogin'> => ({
  ok: false,
  code: 'too_many',
  lockedForMs: Math.max(1, Math.ceil(ms)),
});
