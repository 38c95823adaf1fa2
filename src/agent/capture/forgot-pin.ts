/**
 * "Esqueci meu PIN" on the PIN step (issue 29). Portaria 671: a punch is never refused, so a worker
 * who forgot the PIN still punches: the punch is taken and held as "PIN not verified" for the manager
 * (or a shift lead) to confirm, as a locked-out worker's is (held-punches.ts), and a PIN reset request
 * is left for the admin screen (store/roster/pin-reset-requests.ts: an audit line, open until a PIN is set).
 */
import type { PinResetRequest } from '../../contract.js';
import type { Clock } from '../../domain/time/clock.js';
import { checkCode, type Credential } from '../../domain/people/credential.js';
import type { PunchResult } from '../../domain/punch/punch.js';
import type { AuditLog } from '../../store/roster/audit-log.js';
import type { Db } from '../../store/database.js';
import type { Identities } from '../../store/roster/identities.js';
import { openPinResetRequests, PIN_FORGOTTEN_EVENT } from '../../store/roster/pin-reset-requests.js';
import { inputKindOf, type Capture } from './capture.js';

export type ForgotPinDeps = { capture: Capture; audit: AuditLog; clock: Clock; db: Db; identities: Identities };

/** The punch of `credential` without its PIN, held for the manager; a reset request for its worker. */
export async function punchForgottenPin(d: ForgotPinDeps, credential: Credential): Promise<PunchResult> {
  const r = await d.capture.punch(credential, { pinForgotten: true });
  const code = checkCode(credential.value);
  const input = inputKindOf(credential.kind);
  const who = code.ok && d.capture.needsPin(input) ? d.capture.identify(code.code, input) : null;
  if (r.ok && who?.kind === 'found') {
    const what = r.repeat
      ? `punch ${r.punchId ?? '?'} already taken`
      : `punch ${r.punchId ?? '?'} held for the manager`;
    d.audit.record(
      d.clock.now(),
      PIN_FORGOTTEN_EVENT,
      who.employee.id,
      `${what}; the worker forgot the PIN and asks for a new one`,
    );
  }
  return r;
}

/** The open reset requests with the workers' names, oldest first. */
export function pinResetRequests(d: Pick<ForgotPinDeps, 'db' | 'identities'>): PinResetRequest[] {
  return openPinResetRequests(d.db).map((q) => {
    const e = d.identities.employee(q.employeeId);
    return { employee: e?.external_id ?? q.employeeId, name: e?.full_name ?? q.employeeId, requestedAt: q.requestedAt };
  });
}
