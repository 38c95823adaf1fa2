/**
 * The web bridge's admin sessions, one per browser: the PIN login hands the browser a random secret
 * in an HttpOnly, SameSite=Strict cookie on the bridge's own origin (Path=/, no Domain), and every
 * admin call is gated by the session that cookie names. The page token only says "a page of this
 * terminal"; a second program holding it, without the cookie, gets a closed session (403 on every
 * admin call). Only a digest of each secret is kept; the secret is never logged.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AdminSession } from '../agent/identity/admin-session.js';

export const ADMIN_COOKIE = 'kiosk-admin';
const SECRET_RE = /^[0-9a-f]{64}$/;
/** Kiosks have one browser; a few more (a reload racing a login) are allowed, the oldest dropped beyond. */
const MAX_SESSIONS = 8;

const digestOf = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** The secret the request's Cookie header carries for us, if it is well formed. */
export function adminCookieOf(header: string | undefined): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== ADMIN_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (SECRET_RE.test(value)) return value;
  }
  return null;
}

const ATTRS = 'Path=/; HttpOnly; SameSite=Strict';
export const setAdminCookie = (secret: string): string => `${ADMIN_COOKIE}=${secret}; ${ATTRS}`;
export const clearAdminCookie = (): string => `${ADMIN_COOKIE}=; ${ATTRS}; Max-Age=0`;

export class AdminSessions {
  private readonly byDigest = new Map<string, AdminSession>();

  constructor(private readonly fresh: () => AdminSession) {}

  /** The open session the cookie names, or a new closed one (never kept: it is only good for a login). */
  of(cookieHeader: string | undefined): AdminSession {
    const secret = adminCookieOf(cookieHeader);
    const found = secret === null ? undefined : this.byDigest.get(digestOf(secret));
    return found ?? this.fresh();
  }

  /** A session for a login attempt: always new, so a login never revives or shares an old one. */
  forLogin(): AdminSession {
    return this.fresh();
  }

  /** Keeps a session the PIN opened; the secret for its cookie. */
  keep(session: AdminSession): string {
    this.prune();
    while (this.byDigest.size >= MAX_SESSIONS) {
      const oldest = this.byDigest.keys().next().value;
      if (oldest === undefined) break;
      this.byDigest.get(oldest)?.end();
      this.byDigest.delete(oldest);
    }
    const secret = randomBytes(32).toString('hex');
    this.byDigest.set(digestOf(secret), session);
    return secret;
  }

  /** Ends and forgets the session the cookie names (logout, lock, a new login from the same browser). */
  drop(cookieHeader: string | undefined): void {
    const secret = adminCookieOf(cookieHeader);
    if (secret === null) return;
    const d = digestOf(secret);
    this.byDigest.get(d)?.end();
    this.byDigest.delete(d);
  }

  endAll(): void {
    for (const s of this.byDigest.values()) s.end();
    this.byDigest.clear();
  }

  /** Forgets sessions that ended by idleness. */
  private prune(): void {
    for (const [d, s] of this.byDigest) if (!s.isOpen()) this.byDigest.delete(d);
  }
}
