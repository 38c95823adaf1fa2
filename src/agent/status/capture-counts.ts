/**
 * Punches captured since start, by outcome, for metrics (`timeclock_punches_captured_total`), and
 * the punches refused because they could not be saved (a full disk, a read-only file system): the
 * one refusal that is ours, which status and the admin screen must show, not only the log.
 */
import type { PunchResult } from '../../domain/punch/punch.js';

export type CaptureCount = { outcome: string; count: number };

/** Punches that could not be saved: how many, the last one's time and why (one line). */
export type StorageRefusals = { count: number; lastAt: number; why: string };

/** Answers that end no punch attempt: a badge enrolled, a PIN asked for. */
const NOT_AN_OUTCOME = new Set(['enrollment', 'pin_required']);

export class CaptureCounts {
  private readonly counts = new Map<string, number>();
  private refused: StorageRefusals | null = null;

  /** The outcome label: registered, repeat, the note of a kept punch, or the refusal's reason. */
  note(r: PunchResult, now: number): void {
    const outcome = r.ok ? (r.repeat ? 'repeat' : (r.note ?? 'registered')) : r.reason;
    if (NOT_AN_OUTCOME.has(outcome)) return;
    this.counts.set(outcome, (this.counts.get(outcome) ?? 0) + 1);
    if (!r.ok && r.reason === 'storage_failed') {
      this.refused = { count: (this.refused?.count ?? 0) + 1, lastAt: now, why: r.params?.['why'] ?? 'unknown' };
    }
  }

  list(): CaptureCount[] {
    return [...this.counts].map(([outcome, count]) => ({ outcome, count }));
  }

  /** Since start; null when none was refused. */
  storageRefusals(): StorageRefusals | null {
    return this.refused && { ...this.refused };
  }
}
