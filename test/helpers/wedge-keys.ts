import { DEFAULT_WEDGE_OPTIONS, type WedgeDetector, type WedgeOutput } from '../../src/input/wedge-detector.js';

/** Key presses fed to the wedge detector (src/input/wedge-detector.ts) in its tests, and what they read back. */
export type Press = { key: string; at: number };

export const T0 = 1_000_000;
export const { maxInterKeyMs: GAP, holdMs: HOLD, minLength: MIN, maxLength: MAX } = DEFAULT_WEDGE_OPTIONS;

/** Keys `chars` starting at `start`, `gap` ms apart, then `terminator` one gap after the last key. */
export function burst(chars: string, start: number, gap: number, terminator: string | null = 'Enter'): Press[] {
  const keys = [...chars];
  const presses = keys.map((key, i) => ({ key, at: start + i * gap }));
  if (terminator !== null) presses.push({ key: terminator, at: start + keys.length * gap });
  return presses;
}

/** Feed presses in order; when `ticks` is set, also call tick() like a timer would between keys. */
export function feed(det: WedgeDetector, presses: readonly Press[], ticks = false): WedgeOutput[] {
  const out: WedgeOutput[] = [];
  for (const p of presses) {
    if (ticks) {
      const due = det.nextTickAt();
      if (due !== null && due <= p.at) out.push(...det.tick(due));
    }
    out.push(...det.key(p.key, p.at));
  }
  return out;
}

export const scans = (out: readonly WedgeOutput[]): string[] => out.flatMap((o) => (o.type === 'scan' ? [o.code] : []));
export const typed = (out: readonly WedgeOutput[]): string[] => out.flatMap((o) => (o.type === 'typed' ? [o.key] : []));
export const lastAt = (presses: readonly Press[]): number => presses[presses.length - 1]?.at ?? T0;
export const FAR = 10_000_000;
