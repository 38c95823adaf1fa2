/**
 * A line typed where a PIN is awaited (the console's prompt, the screen's PIN step) is the awaited
 * person's PIN or the next person's ID (issue 29: 1001 typed the ID and walked away; 1002's ID was
 * taken as 1001's wrong PIN, a step towards 1001's lockout, and 1002 was not registered).
 *
 * The rule, from how the two are configured: a PIN is 4-8 digits (domain/people/pin-policy.ts); a typed ID
 * is whatever `identity.allowed.id` looks up (external id, registration number, CPF by default), and
 * external ids such as 1002 are PIN-shaped too, so shape alone cannot tell them apart. So: a line the
 * roster knows as an ID closes the prompt and starts that person's punch, unless it is PIN-shaped
 * and is the awaited person's PIN (compared without counting as an attempt). Anything else answers
 * the prompt as a PIN, as before (a wrong one counts). A known ID that closes a prompt counts toward
 * the terminal-wide slow-down only (store/roster/pins.ts isPinOf), and is written to the audit log.
 */
import type { Clock } from '../../domain/time/clock.js';
import { checkCode, type Credential } from '../../domain/people/credential.js';
import type { Resolution } from '../../domain/people/identity.js';
import type { AuditLog } from '../../store/roster/audit-log.js';
import type { RosterEmployee } from '../../store/roster/roster.js';
import { inputKindOf, type Capture } from './capture.js';

export type PinPromptDeps = {
  /** Whether punches of this input kind ask for a PIN at all (config pin.requiredFor). */
  needsPin(input: 'badge' | 'id'): boolean;
  /** The employee a code names by the configured keys of its input kind (Capture.identify). */
  identify(code: string, input: 'badge' | 'id'): Resolution<RosterEmployee>;
  isPinOf(employeeId: string, pin: string): Promise<boolean>;
  /** An audit line for the awaited employee (never the line itself: it may be a PIN). */
  audit(employeeId: string | null, detail: string): void;
};

/**
 * The next person's ID when `line`, typed at the prompt for `awaited`, is one; null: it answers the prompt as a PIN.
 */
export async function nextIdAtPinPrompt(
  d: PinPromptDeps,
  awaited: Credential,
  line: string,
): Promise<Credential | null> {
  const code = checkCode(line);
  if (!code.ok || !d.needsPin(inputKindOf(awaited.kind))) return null;
  const next = d.identify(code.code, 'id');
  if (next.kind !== 'found') return null;
  const awaitedCode = checkCode(awaited.value);
  const owner = awaitedCode.ok ? d.identify(awaitedCode.code, inputKindOf(awaited.kind)) : null;
  const ownerId = owner?.kind === 'found' ? owner.employee.id : null;
  if (ownerId !== null && (await d.isPinOf(ownerId, code.code))) return null;
  d.audit(ownerId, `PIN prompt closed by a known ID (employee ${next.employee.id}); not counted as a wrong PIN`);
  return { kind: 'id', value: code.code };
}

/** The rule's parts from the agent's. */
export function pinPromptDeps(p: { capture: Capture; audit: AuditLog; clock: Clock }): PinPromptDeps {
  return {
    needsPin: (input) => p.capture.needsPin(input),
    identify: (code, input) => p.capture.identify(code, input),
    isPinOf: (employeeId, pin) => p.capture.isPinOf(employeeId, pin),
    audit: (employeeId, detail) => p.audit.record(p.clock.now(), 'pin_prompt_closed', employeeId, detail),
  };
}
