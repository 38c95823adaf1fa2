/**
 * Issue 31: a punch's photo (or its "sem foto") to the agent, after the punch's answer; a failure costs the photo,
 * never the punch.
 */
import type { Client } from './bridge.js';
import type { Frame } from './camera.js';
import type { PunchResultView } from '../../src/contract.js';

export function sendPhoto(client: Client, nsr: number, frame: Frame): void {
  void afterPaint()
    .then(() => frame.encode())
    .then((s) => client.call('punchPhoto', 'jpeg' in s ? { nsr, jpeg: s.jpeg } : { nsr, missing: s.missing }))
    .catch(() => undefined);
}

/** Once the frame being drawn now (the punch's answer) is painted: the encoding never competes with it. */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/** The NSR a photo goes with: a punch registered now (not a repeat, which registers nothing new), else null. */
export function photoNsrOf(r: PunchResultView | null): number | null {
  return r !== null && r.ok && typeof r.nsr === 'number' && !r.repeat ? r.nsr : null;
}
