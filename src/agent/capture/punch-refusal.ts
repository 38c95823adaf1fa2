import type { PunchRefusal, PunchResult } from '../../domain/punch/punch.js';

/** A punch NOT registered, as every step of capture answers it (the code, the employee, the PIN, the disk). */
export function refusal(
  reason: PunchRefusal,
  params: Record<string, string> = {},
  employeeExternalId: string | null = null,
): PunchResult {
  return { ok: false, reason, ...(Object.keys(params).length > 0 ? { params } : {}), employeeExternalId };
}
