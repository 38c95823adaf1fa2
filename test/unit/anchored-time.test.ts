import { describe, expect, it } from 'vitest';
import { anchorOf, betterAnchor, correctedTime, readTime } from '../../src/domain/time/anchored-time.js';

describe('service-anchored time', () => {
  const anchor = anchorOf('boot-1', Date.UTC(2026, 10, 23, 10, 0, 0), 5_000, 5_200); // the header says 10:00:00
  it('carries the service clock forward by the monotonic time elapsed; a wall clock off by hours is corrected', () => {
    const r = readTime(anchor, 'boot-1', Date.UTC(2026, 10, 23, 12, 0, 30), 5_100 + 30_000);
    expect(r).toMatchObject({ anchored: true, at: Date.UTC(2026, 10, 23, 10, 0, 30, 500) });
  });
  it("a wall clock that agrees within what a Date header can tell is kept: no minute changes by the anchor's own error", () => {
    const wall = Date.UTC(2026, 10, 23, 10, 0, 59, 800); // the anchor would say 10:01:00.3
    expect(correctedTime(anchor, 5_100 + 60_000 - 200, wall)).toBe(wall);
    // 2.3 s off: corrected
    expect(correctedTime(anchor, 5_100 + 60_000, wall + 3_000)).toBe(Date.UTC(2026, 10, 23, 10, 1, 0, 500));
  });
  it("another boot's anchor does not count; a new anchor replaces one only when they disagree", () => {
    expect(readTime(anchor, 'boot-2', 123, 456)).toEqual({
      at: 123,
      wall: 123,
      mono: 456,
      bootId: 'boot-2',
      anchored: false,
    });
    const near = anchorOf('boot-1', Date.UTC(2026, 10, 23, 10, 1, 0), 65_000, 65_200);
    expect(betterAnchor(anchor, near)).toBe(anchor);
    const far = anchorOf('boot-1', Date.UTC(2026, 10, 23, 10, 1, 5), 65_000, 65_200);
    expect(betterAnchor(anchor, far)).toBe(far);
  });
});
