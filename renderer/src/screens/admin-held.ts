/**
 * The queue tab's held punches: kept on this terminal, not on their way, each with why (worded by
 * held-view.ts) and the service's words. For a punch the service would not confirm (unverified) or
 * refused for its employee (forbidden), a person decides: send it again, or mark it as delivered.
 * Marking as delivered takes two taps: `held-delivered` turns the row into its confirm state
 * (`data-confirming="true"`, a `held-confirm-help` line, `held-delivered-confirm` and `held-cancel`),
 * which goes back by itself after CONFIRM_MS.
 *
 * A punch taken while its employee was locked out after wrong PINs (pin_unverified) is confirmed
 * (`held-confirm`: it is sent) or disputed: `held-dispute` opens the reason (`data-disputing="true"`,
 * a `held-dispute-reason` field, `held-dispute-confirm` and `held-cancel`); the disputed punch stays
 * here, never sent, with the reason as its detail. The reason field is kept across redraws (a list
 * refresh while the manager types loses nothing) and never closes by itself.
 */
import { coalescedLoad } from '../coalesced-load.js';
import { button, fill, h } from '../dom.js';
import {
  DISPUTE_REASON_MAX,
  disputeReason,
  heldActions,
  heldList,
  type HeldPunch,
  type HeldRowView,
} from '../held-view.js';
import { answerText, t } from '../i18n.js';
import { field, textInput, type Shared } from './admin-common.js';
import type { Ctx } from './view.js';
import { PhotoSlots } from './punch-photo-slot.js';

/** How long the confirm state of "mark as delivered" waits for the second tap. */
export const CONFIRM_MS = 10_000;

export type HeldSection = { el: HTMLElement; update(ctx: Ctx): void; load(): Promise<void> };

export function heldSection(ctx: Ctx, sh: Shared): HeldSection {
  const lang = ctx.lang;
  const actions = heldActions(lang);
  const list = h('div', { class: 'held-list', testid: 'held-list' });
  let rows: HeldPunch[] | null = null;
  let lastHeldCount: number | null = null;
  /** The row waiting for the second tap on "mark as delivered", and when that stops. */
  let confirming: number | null = null;
  let confirmTimer: ReturnType<typeof setTimeout> | null = null;
  /** The row whose dispute reason is open, and its field (built once, so what is typed survives a redraw). */
  let dispute: { id: number; box: HTMLElement; input: HTMLInputElement; send: HTMLButtonElement } | null = null;
  const busy = new Set<number>();
  // Issue 31: the punch's photo helps the decision (who really punched with a forgotten or wrong PIN).
  const photos = new PhotoSlots(sh.calls, ctx);

  const setConfirming = (id: number | null): void => {
    confirming = id;
    if (confirmTimer !== null) clearTimeout(confirmTimer);
    confirmTimer = id === null ? null : setTimeout(() => sh.alive() && setConfirming(null), CONFIRM_MS);
    if (id !== null) dispute = null; // one question at a time
    render();
  };

  const setDisputing = (id: number | null): void => {
    if (id !== null && confirming !== null) setConfirming(null);
    if (id === null) dispute = null;
    else {
      const input = textInput('held-dispute-reason', { maxLength: DISPUTE_REASON_MAX });
      const send = button(actions.disputeConfirm, () => void submitDispute(id), {
        class: 'row-button danger-button',
        testid: 'held-dispute-confirm',
      });
      const box = h('div', { class: 'hr-dispute' }, [
        field(actions.disputeReason, input, send),
        h('div', { class: 'hr-dispute-help muted', testid: 'held-dispute-help', text: actions.disputeHelp }),
      ]);
      dispute = { id, box, input, send };
    }
    render();
    if (dispute !== null && id !== null) dispute.input.focus();
  };

  const buttonsFor = (v: HeldRowView): HTMLElement | null => {
    if (v.decide === null) return null;
    const off = busy.has(v.id);
    const make = (text: string, testid: string, cls: string, onClick: () => void): HTMLButtonElement => {
      const b = button(text, onClick, { class: cls, testid });
      b.disabled = off;
      return b;
    };
    let children: HTMLButtonElement[];
    if (v.decide === 'pin') {
      children =
        dispute?.id === v.id
          ? [make(actions.cancel, 'held-cancel', 'row-button secondary-button', () => setDisputing(null))]
          : [
              make(actions.confirmPin, 'held-confirm', 'row-button', () => void decide(v.id, 'resend')),
              make(actions.dispute, 'held-dispute', 'row-button secondary-button', () => setDisputing(v.id)),
            ];
    } else {
      children =
        confirming === v.id
          ? [
              make(
                actions.confirm,
                'held-delivered-confirm',
                'row-button danger-button',
                () => void decide(v.id, 'delivered'),
              ),
              make(actions.cancel, 'held-cancel', 'row-button secondary-button', () => setConfirming(null)),
            ]
          : [
              make(actions.resend, 'held-resend', 'row-button', () => void decide(v.id, 'resend')),
              make(actions.delivered, 'held-delivered', 'row-button secondary-button', () => setConfirming(v.id)),
            ];
    }
    return h('div', { class: 'held-actions' }, children);
  };

  /** The open dispute's field, with its state brought up to date (disabled while its answer is awaited). */
  const disputeBoxFor = (id: number): HTMLElement | null => {
    if (dispute?.id !== id) return null;
    const off = busy.has(id);
    dispute.input.disabled = off;
    dispute.send.disabled = off;
    return dispute.box;
  };

  const render = (): void => {
    if (rows === null) return;
    const v = heldList(rows, lang);
    // Moving the reason field in the document drops its focus: give it back, caret and all.
    const input = dispute?.input ?? null;
    const focused = input !== null && document.activeElement === input;
    const caret = focused ? [input.selectionStart, input.selectionEnd] : null;
    if (v.empty !== null) return fill(list, [h('p', { class: 'muted', testid: 'held-none', text: v.empty })]);
    fill(list, [
      ...v.rows.map((r) =>
        h(
          'div',
          {
            class: 'held-row',
            testid: 'held-row',
            data: {
              punchId: String(r.id),
              reason: r.reason,
              confirming: String(confirming === r.id),
              disputing: String(dispute?.id === r.id),
            },
          },
          [
            h('div', { class: 'hr-main' }, [
              h('div', { class: 'rr-name', text: r.name }),
              h('div', { class: 'rr-when', text: r.when }),
              h('div', { class: 'hr-reason', testid: 'held-reason', text: r.reasonText }),
              r.detail === null ? null : h('div', { class: 'hr-detail muted', testid: 'held-detail', text: r.detail }),
              h('div', { class: 'hr-attempts muted', text: r.attempts }),
              confirming === r.id
                ? h('div', {
                    class: 'hr-confirm warn',
                    testid: 'held-confirm-help',
                    attrs: { role: 'alert' },
                    text: actions.confirmHelp,
                  })
                : null,
              disputeBoxFor(r.id),
            ]),
            photos.slot(rows?.find((p) => p.id === r.id)?.nsr),
            buttonsFor(r),
          ],
        ),
      ),
      v.more === null ? null : h('p', { class: 'muted', text: v.more }),
    ]);
    if (focused && input.isConnected && !input.disabled) {
      input.focus();
      if (caret !== null) input.setSelectionRange(caret[0], caret[1]);
    }
  };

  const load = coalescedLoad(async () => {
    const r = await sh.calls('listHeld', {});
    if (!sh.alive() || r === null) return;
    // Said in the list itself: the message area keeps the answer the manager is reading.
    if (!r.ok) fill(list, [h('p', { class: 'bad', text: t(lang, 'admin.failed', { message: r.error.message }) })]);
    else {
      rows = r.value;
      const open = (id: number | null | undefined): boolean =>
        id != null && rows !== null && rows.some((p) => p.id === id && p.held_reason === 'pin_unverified');
      if (dispute !== null && !open(dispute.id)) dispute = null; // decided elsewhere (or gone): nothing left to dispute
      if (confirming !== null && !rows.some((p) => p.id === confirming)) setConfirming(null);
      else render();
    }
  });

  const decide = async (
    punchId: number,
    decision: 'resend' | 'delivered' | 'dispute',
    reason?: string,
  ): Promise<void> => {
    if (busy.has(punchId)) return;
    busy.add(punchId);
    if (confirming === punchId) setConfirming(null);
    else render();
    const r = await sh.calls(
      'decideHeld',
      reason === undefined ? { punchId, decision } : { punchId, decision, reason },
    );
    busy.delete(punchId);
    if (!sh.alive()) return;
    // Decided: the reason field closes. Refused (no reason, a failed call): it stays, as typed.
    if (dispute?.id === punchId && r !== null && r.ok && r.value.ok) dispute = null;
    render();
    if (sh.failed(r)) return;
    sh.notice(answerText(lang, r.value), r.value.ok ? 'ok' : r.value.code === 'held_not_held' ? 'info' : 'error');
    if (!r.value.ok && dispute?.id === punchId) dispute.input.focus();
    await load();
  };

  const submitDispute = async (punchId: number): Promise<void> => {
    if (dispute?.id !== punchId) return;
    const reason = disputeReason(dispute.input.value);
    if (reason === null) {
      // What the agent would answer; said here without a call.
      sh.notice(t(lang, 'answer.held_reason_required'), 'error');
      dispute.input.focus();
      return;
    }
    await decide(punchId, 'dispute', reason);
  };

  const el = h('section', { class: 'held-section' }, [
    h('div', { class: 'list-head' }, [h('h2', { text: t(lang, 'queue.heldList') })]),
    list,
  ]);

  return {
    el,
    load,
    update(c) {
      const held = c.status?.queue.held;
      if (held === undefined) return;
      // A punch held or released (by a decision, a roster sync, a retry after 403): list them again.
      if (lastHeldCount !== null && lastHeldCount !== held) void load();
      lastHeldCount = held;
    },
  };
}
