/** The outbox's rows and what capture hands it (store/punches/outbox.ts writes them). */
import type { ClockFlag, PunchState } from '../../domain/punch/punch.js';

/** A punch row as the uploader and the status screens need it. */
export type PunchRow = {
  id: number;
  captured_at: number;
  local_date: string;
  local_time: string;
  time_zone: string;
  employee_key: string;
  employee_external_id: string | null;
  employee_name: string;
  credential_kind: string;
  state: PunchState;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  reject_reason: string | null;
  remote_id: string | null;
  sent_at: number | null;
  clock_flag: ClockFlag | null;
  updated_at: number;
  /** Why a held punch waits (see HeldReason); null when it is not held. */
  held_reason: HeldReason | null;
  /** Reconciliation checks answered without proof either way (refused, unreadable). */
  checks: number;
  /** What capture read: the wall clock, the monotonic clock (ms since boot) and the boot. */
  wall_at: number | null;
  mono_at: number | null;
  boot_id: string | null;
  /** 0: captured before any answer of the service in its boot (wall clock), recomputed at the first. */
  anchored: number;
  /** Its mark in the evidence journal (null: taken before the journal, until the agent's next open journals it). */
  nsr: number | null;
};

export type NewPunch = {
  capturedAt: number;
  localDate: string;
  localTime: string;
  timeZone: string;
  employeeKey: string;
  employeeExternalId: string | null;
  employeeName: string;
  credentialKind: string;
  clockFlag: ClockFlag | null;
  /** Set: kept but not sent (the employee's contract forbids API records). */
  heldReason?: HeldReason | null;
  /** The local minute may have come before (the zone's clock went back within the hour): look for a collision. */
  mayRepeatLocalMinute?: boolean;
  /** The clock readings behind `capturedAt` (absent: anchored, nothing to recompute). */
  time?: { wall: number; mono: number; bootId: string; anchored: boolean };
  /** The worker's CPF for the mark (absent or null: not known, twelve zeros). */
  cpf?: string | null;
  /** The NSR of the unresolved capture this punch is (its mark exists already): no new mark. */
  nsr?: number | null;
  /** The employer chain its mark joins (store/roster/employers.ts chainOf); absent: the configured employer's. */
  chain?: string;
};

/**
 * Why a punch is held:
 * - not_allowed: the employee's `allow_external_api_record` is false (released by a roster sync);
 * - forbidden: the service answered 403 for this employee while the token is fine (retried on a
 *   slow schedule and after each roster sync);
 * - unverified: in doubt, and the service would not say whether it has it: a person decides
 *   (send again, or mark as delivered);
 * - pin_unverified: taken while its employee was locked out after wrong PINs: the manager confirms
 *   (sent) or disputes it;
 * - disputed: a manager disputed it: kept here, never sent, with the reason;
 * - clock_unverified: its time is this terminal's clock, never confirmed by the service's `Date`,
 *   and cannot be true (earlier than a time known to be right, or later than now: a dead RTC). A
 *   person decides; released by itself if its boot's first anchor re-times it.
 */
export type HeldReason =
  'not_allowed' | 'forbidden' | 'unverified' | 'pin_unverified' | 'disputed' | 'clock_unverified';

/** `line`: the mark this insert sealed (its AFD type 7 line); null when the punch took an NSR whose mark exists. */
export type InsertOutcome =
  { inserted: true; id: number; nsr: number; line: string | null } | { inserted: false; existing: PunchRow };
