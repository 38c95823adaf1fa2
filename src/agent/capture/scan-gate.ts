/**
 * A keyboard-class reader read through hidraw also types into the window: the same scan then
 * arrives twice, by two sources, within moments. The second is not a punch (and not even an
 * "already registered": the person scanned once).
 */
import type { Clock } from '../../domain/time/clock.js';

/** A scan arriving again by another source within this long is the same scan. */
const SAME_SCAN_MS = 1_500;

export class ScanGate {
  private readonly recentScans = new Map<string, { at: number; source: string }>();

  constructor(private readonly clock: Clock) {}

  /** True: `code` came by another source moments ago (drop it); else it is noted as this source's. */
  sameScanOtherWay(code: string, source: string): boolean {
    const now = this.clock.now();
    const prev = this.recentScans.get(code);
    if (this.recentScans.size > 256)
      for (const [k, v] of this.recentScans) if (now - v.at > SAME_SCAN_MS) this.recentScans.delete(k);
    if (prev && prev.source !== source && now - prev.at < SAME_SCAN_MS) return true;
    this.recentScans.set(code, { at: now, source });
    return false;
  }
}
