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

export type HeldRowView = {
  id: number;
  reason: HeldReason;
  name: string;
  /** The punch's own local date and time, as the rejected list shows it. */
  when: string;
  /** Why it is held and what happens next, in the screen's language. */
  reasonText: string;
  /** The service's words (`last_error`), as a detail line; null when there are none. */
  detail: string | null;
  attempts: string;
  /**
   * Whether a person may decide (send again, or mark as delivered): the service would not say
   * whether it has the punch (unverified), or refused this employee (forbidden, also retried by
   * itself). A punch held by the employee's contract waits for HR, not for a decision here.
   */
  decide: boolean;
};

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
    detail: error === '' ? null : t(lang, 'held.detail', { error }),
    attempts: attemptsText(p.attempts, lang),
    decide: reason === 'unverified' || reason === 'forbidden',
  };
}

export type HeldActionsView = { resend: string; delivered: string; confirm: string; confirmHelp: string; cancel: string };

/**
 * The buttons of a row a person decides on. "Mark as delivered" takes two taps: the first shows
 * `confirmHelp` (nothing more is sent) with `confirm` and `cancel`.
 */
export function heldActions(lang: Lang): HeldActionsView {
  return {
    resend: t(lang, 'held.resend'),
    delivered: t(lang, 'held.delivered'),
    confirm: t(lang, 'held.confirmDelivered'),
    confirmHelp: t(lang, 'held.confirmHelp'),
    cancel: t(lang, 'held.cancel'),
  };
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
  return n === 1 ? t(lang, 'queue.attemptsOne') : t(lang, 'queue.attempts', { n });
}
