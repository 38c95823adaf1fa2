/** How long each screen stays without a key before it closes itself (the machine's `timeout` event). */
import type { ScreenSettings } from '../../src/contract.js';
import { PIN_PROMPT_MS } from '../../src/contract/pin-prompt.js';
import type { Model, ScreenName } from './machine-model.js';

/** Keypad and admin login give up after this long without a key (the PIN step after PIN_PROMPT_MS). */
export const INPUT_IDLE_MS = 20_000;
/** The admin screen locks itself after this long without a touch or key. */
export const ADMIN_IDLE_MS = 60_000;

/** The screens that wait for a person's input: a key or a touch there restarts their timer. */
export function waitsForInput(name: ScreenName): boolean {
  return name === 'keypad' || name === 'pin' || name === 'admin-login' || name === 'admin';
}

/** How long this result stays: longer when it carries a receipt, whose QR code a phone takes seconds to read. */
export function resultMs(screen: Model['screen'], settings: ScreenSettings | null): number {
  const base = settings?.resultMs ?? 4_000;
  const receipt =
    screen.name === 'result' && screen.shown.result?.ok === true && screen.shown.result.receipt !== undefined;
  return receipt ? Math.max(base, settings?.receiptMs ?? 12_000) : base;
}

/** The screen's timer, or null for screens that stay (idle, loading, offline-agent). */
export function screenTimeoutMs(
  name: ScreenName,
  screen: Model['screen'],
  settings: ScreenSettings | null,
): number | null {
  if (name === 'result') return resultMs(screen, settings);
  if (name === 'admin') return ADMIN_IDLE_MS;
  // The PIN step closes sooner (issue 29): the next person's ID must not find someone else's PIN step.
  if (name === 'pin') return PIN_PROMPT_MS;
  return waitsForInput(name) ? INPUT_IDLE_MS : null;
}
