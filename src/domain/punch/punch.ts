/**
 * States of a punch in the outbox. Only a 2xx or a reconciliation ends one as `sent`. `held`: kept
 * and not sent until something outside the terminal changes (the employee's contract forbids API
 * records); released to `pending` with its original time.
 */
export const punchStates = ['pending', 'sending', 'in_doubt', 'sent', 'rejected', 'held'] as const;
export type PunchState = (typeof punchStates)[number];

/** What a badge scanned to enroll can come to (a subset of the admin answers' codes in src/contract.ts). */
export const enrollmentCodes = ['badge_enrolled', 'badge_moved', 'badge_invalid'] as const;
export type EnrollmentCode = (typeof enrollmentCodes)[number];

/** What the employee sees after a punch attempt. */
export type PunchResult =
  | {
      ok: true;
      /** null for a punch kept unresolved (accept-and-resolve): not in the outbox yet */
      punchId: number | null;
      /**
       * Its NSR in the evidence journal (an unresolved capture has one too; a repeat: the earlier punch's; null: taken
       * before the journal).
       */
      nsr: number | null;
      /** null while the credential is not matched to an employee */
      employeeName: string | null;
      employeeExternalId: string | null;
      localDate: string;
      localTime: string;
      /** true when an identical punch (same employee, same local minute) already existed */
      repeat: boolean;
      /** Why a kept punch is not (yet) on its way; absent for an ordinary registered punch. */
      note?: PunchNote;
      /** Timed by this terminal's clock before the service confirmed it ("horário a confirmar"); absent: confirmed. */
      timeToConfirm?: true;
    }
  | {
      ok: false;
      reason: PunchRefusal;
      /** What the refusal's text is filled with (src/messages `refusal.<reason>`); never text itself. */
      params?: Record<string, string>;
      employeeExternalId?: string | null;
      employeeName?: string;
      /**
       * With `pin_required` for a scanned badge: answer it with the PIN (agent `answerPin`) instead
       * of the badge code, which a screen shown a reader's scan does not have. Single use.
       */
      pinChallenge?: string;
      /**
       * With `enrollment`: whether the badge was enrolled, and the answer's code and details for the screen to word.
       */
      enrollment?: { ok: boolean; code: EnrollmentCode; params?: Record<string, string> };
    };

export type PunchRefusal =
  | 'invalid_code'
  | 'invalid_cpf'
  | 'unknown_credential'
  | 'ambiguous_credential'
  | 'pin_required'
  | 'pin_wrong'
  | 'pin_locked'
  | 'pin_throttled'
  | 'no_pin'
  /** the PIN came for a badge scan that is too old or already answered: scan again */
  | 'pin_expired'
  | 'storage_failed'
  | 'shutting_down'
  /** the scan was taken to enroll a badge, not as a punch */
  | 'enrollment';

/** See src/contract.ts `punchNoteSchema`. */
export type PunchNote = 'awaiting_roster' | 'unknown_code' | 'held_not_allowed' | 'held_pin_unverified';

/**
 * Clock trouble noticed at capture, kept with the punch for payroll review. service_clock_off: the
 * service's `Date` disagreed with this machine's NTP-synchronised clock by more than the bound; the
 * local time was kept.
 */
export type ClockFlag = 'skewed' | 'jumped_back' | 'unanchored' | 'service_clock_off';
