/** States of a punch in the outbox. Only a 2xx or a reconciliation ends one as `sent`. */
export const punchStates = ['pending', 'sending', 'in_doubt', 'sent', 'rejected'] as const;
export type PunchState = (typeof punchStates)[number];

/** What the employee sees after a punch attempt. */
export type PunchResult =
  | {
      ok: true;
      punchId: number;
      employeeName: string;
      employeeExternalId: string | null;
      localDate: string;
      localTime: string;
      /** true when an identical punch (same employee, same local minute) already existed */
      repeat: boolean;
      message: string;
    }
  | { ok: false; reason: PunchRefusal; message: string; employeeExternalId?: string | null };

export type PunchRefusal = 'invalid_code' | 'unknown_credential' | 'storage_failed' | 'shutting_down';

/** Clock trouble noticed at capture, kept with the punch for payroll review. */
export type ClockFlag = 'skewed' | 'jumped_back';
