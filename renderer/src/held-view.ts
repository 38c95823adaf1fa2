/**
 * What the admin queue tab says about held punches (kept on this terminal, not on their way) and
 * what a manager may do about each. Pure: a `listHeld` row in, words out, so tests pin down what a
 * person reads; screens/admin-held.ts lays them out and makes the calls.
 */
import type { z } from 'zod';
import type { heldPunchSchema } from '../../src/contract.js';
import { formatShortLocalDate } from './format.js';
import { t, type Lang } from './i18n.js';

export type HeldPunch = z.infer<typeof heldPunchSchema>;
/** `held_reason`, with `unknown` for a row that has none (kept by an older version). */
export type HeldReason = NonNullable<HeldPunch['held_reason']> | 'unknown';

/**
 * What a person may decide on a held punch:
 * - delivery: the service would not say whether it has the punch (unverified), or refused this
 *   employee (forbidden, also retried by itself), or its time is this terminal's unconfirmed clock
 *   and cannot be right (clock_unverified: the detail shows the captured time): send it as it is,
 *   or mark it as delivered (entered by hand on the service);
 * - pin: taken while its employee was locked out after wrong PINs (pin_unverified): confirm it
 *   (it is sent) or dispute it (kept here, never sent, with a reason).
 * A punch held by the employee's contract waits for HR, and a disputed one stays as it is: null.
 */
export type HeldDecisionKind = 'delivery' | 'pin';

export type HeldRowView = {
  id: number;
  reason: HeldReason;
  name: string;
  /** The punch's own local date and time, as the rejected list shows it. */
  when: string;
  /** Why it is held and what happens next, in the screen's language. */
  reasonText: string;
  /**
   * The service's words (`last_error`), as a detail line; for a disputed punch, the manager's
   * reason (kept in `last_error`); null when there are none.
   */
  detail: string | null;
  attempts: string;
  /** Which decision a person may take here (see `HeldDecisionKind`), or null for none. */
  decide: HeldDecisionKind | null;
};

export function heldDecisionOf(reason: HeldReason): HeldDecisionKind | null {
  if (reason === 'unverified' || reason === 'forbidden' || reason === 'clock_unverified') return 'delivery';
  if (reason === 'pin_unverified') return 'pin';
  return null;
}

export function heldReasonOf(p: HeldPunch): HeldReason {
  return p.held_reason ?? 'unknown';
}

export function heldRow(p: HeldPunch, lang: Lang): HeldRowView {
  const reason = heldReasonOf(p);
  const error = p.last_error?.trim() ?? '';
  return {
    id: p.id,
    reason,
    name: p.employee_external_id ? `${p.employee_name} (${p.employee_external_id})` : p.employee_name,
    when: `${formatShortLocalDate(p.local_date, lang)} ${p.local_time}`,
    reasonText: t(lang, `held.reason.${reason}`),
    detail:
      error === ''
        ? null
        : reason === 'disputed'
          ? t(lang, 'held.disputeDetail', { reason: error })
          : t(lang, 'held.detail', { error }),
    attempts: attemptsText(p.attempts, lang),
    decide: heldDecisionOf(reason),
  };
}

export type HeldActionsView = {
  resend: string;
  delivered: string;
  confirm: string;
  confirmHelp: string;
  cancel: string;
  confirmPin: string;
  dispute: string;
  disputeReason: string;
  disputeHelp: string;
  disputeConfirm: string;
};

/** The longest dispute reason the agent takes (src/contract.ts `decideHeld`). */
export const DISPUTE_REASON_MAX = 300;

/**
 * The buttons of a row a person decides on. "Mark as delivered" takes two taps: the first shows
 * `confirmHelp` (nothing more is sent) with `confirm` and `cancel`. A punch whose PIN was not
 * verified is confirmed in one tap (`confirmPin`: it is sent), or disputed: `dispute` opens the
 * reason (`disputeReason`, `disputeHelp`) with `disputeConfirm` and `cancel`.
 */
export function heldActions(lang: Lang): HeldActionsView {
  return {
    resend: t(lang, 'held.resend'),
    delivered: t(lang, 'held.delivered'),
    confirm: t(lang, 'held.confirmDelivered'),
    confirmHelp: t(lang, 'held.confirmHelp'),
    cancel: t(lang, 'held.cancel'),
    confirmPin: t(lang, 'held.confirmPin'),
    dispute: t(lang, 'held.dispute'),
    disputeReason: t(lang, 'held.disputeReason'),
    disputeHelp: t(lang, 'held.disputeHelp'),
    disputeConfirm: t(lang, 'held.disputeConfirm'),
  };
}

/** A dispute's reason as it is sent: trimmed, or null when nothing is left (the agent would refuse it). */
export function disputeReason(typed: string): string | null {
  const r = typed.trim();
  return r === '' ? null : r.slice(0, DISPUTE_REASON_MAX);
}

/** The held list shows this many rows at most (the tile counts them all). */
export const HELD_SHOWN = 100;

export type HeldListView = { rows: HeldRowView[]; empty: string | null; more: string | null };

/** The held list: its rows (the first `HELD_SHOWN`), "none" when empty, "…and N more" past the cap. */
export function heldList(rows: readonly HeldPunch[], lang: Lang, shown = HELD_SHOWN): HeldListView {
  const rest = rows.length - shown;
  return {
    rows: rows.slice(0, shown).map((p) => heldRow(p, lang)),
    empty: rows.length === 0 ? t(lang, 'queue.noHeld') : null,
    more: rest > 0 ? t(lang, 'roster.andMore', { n: rest }) : null,
  };
}

/** "1 tentativa", "3 tentativas": the rejected and held lists. */
export function attemptsText(n: number, lang: Lang): string {
  return t(lang, 'queue.attempts', { n });
}
