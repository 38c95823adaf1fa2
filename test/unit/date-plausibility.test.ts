import { describe, expect, it } from 'vitest';
import { anchorOf } from '../../src/domain/time/anchored-time.js';
import {
  anchorAfter,
  anchorWhenLocalWins,
  confirms,
  describeOffset,
  judgeServerDate,
  type DateCandidate,
} from '../../src/domain/time/date-plausibility.js';
import { unanchoredDoubt } from '../../src/domain/time/unanchored-doubt.js';
import { oldClockLatest } from '../../src/agent/time/clock-watch.js';

const T = Date.UTC(2026, 10, 23, 13, 0, 0);
const HOUR = 3_600_000;
const BOUND = 5 * 60_000;
/** An answer whose Date says `serverAt`, to a request sent at `sent` and answered at `sent + 100` (monotonic ms). */
const answer = (serverAt: number, sent: number, boot = 'b'): DateCandidate => ({
  anchor: anchorOf(boot, serverAt - 500, sent, sent + 100),
  sentMono: sent,
  receivedMono: sent + 100,
});

describe("whether a service's Date may anchor the time", () => {
  it('NTP-synchronised: within the bound it anchors; beyond it (a year, an hour) this clock wins, either way', () => {
    const judge = (offset: number) =>
      judgeServerDate({
        candidate: answer(T + offset, 1_000),
        current: null,
        pending: null,
        localAt: T,
        ntp: 'yes',
        boundMs: BOUND,
      });
    expect(judge(4 * 60_000)).toEqual({ kind: 'anchor', offsetMs: 240_000 });
    expect(judge(365 * 24 * HOUR)).toEqual({ kind: 'local', offsetMs: 365 * 24 * HOUR });
    expect(judge(HOUR)).toEqual({ kind: 'local', offsetMs: HOUR });
    expect(judge(-HOUR)).toEqual({ kind: 'local', offsetMs: -HOUR });
  });

  it('not synchronised (or unknown): near the time in force it anchors; a far one waits for a second, later answer that agrees', () => {
    const current = anchorOf('b', T - 500, 900, 1_100); // the service's T at mono 1000
    const near = answer(T + 10_000 + 60_000, 61_000); // the anchor says T + 60 s then: 10 s off, within the bound
    expect(
      judgeServerDate({ candidate: near, current, pending: null, localAt: T + 60_000, ntp: 'no', boundMs: BOUND }).kind,
    ).toBe('anchor');
    const far = answer(T + 2 * HOUR + 60_000, 61_000);
    const first = judgeServerDate({
      candidate: far,
      current,
      pending: null,
      localAt: T + 60_000,
      ntp: 'unknown',
      boundMs: BOUND,
    });
    expect(first.kind).toBe('await_second');
    expect(Math.abs((first.kind === 'await_second' ? first.jumpMs : 0) - 2 * HOUR)).toBeLessThan(100);
    const again = answer(T + 2 * HOUR + 70_000, 71_000);
    expect(
      judgeServerDate({ candidate: again, current, pending: far, localAt: T + 70_000, ntp: 'no', boundMs: BOUND }).kind,
    ).toBe('anchor');
    // A different far clock does not confirm it; an answer to a request out at the same time neither.
    const other = answer(T + 3 * HOUR + 70_000, 71_000);
    expect(
      judgeServerDate({ candidate: other, current, pending: far, localAt: T + 70_000, ntp: 'no', boundMs: BOUND }).kind,
    ).toBe('await_second');
    const together = answer(T + 2 * HOUR + 60_050, 61_050);
    expect(confirms(far, together)).toBe(false);
    expect(confirms(far, again)).toBe(true);
    expect(confirms(far, answer(T + 2 * HOUR + 70_000, 71_000, 'other-boot'))).toBe(false);
  });

  it('without an anchor, a Date far from the wall clock (a dead RTC, a wrong service) also needs a second answer', () => {
    const dead = Date.UTC(2000, 0, 1);
    expect(
      judgeServerDate({
        candidate: answer(T, 5_000),
        current: null,
        pending: null,
        localAt: dead,
        ntp: 'no',
        boundMs: BOUND,
      }).kind,
    ).toBe('await_second');
  });

  it('when this clock wins, the anchor in force is kept if it agrees with it, else this clock itself is the anchor', () => {
    const agreeing = anchorOf('b', T - 500, 900, 1_100);
    const candidate = anchorOf('b', T + HOUR, 10_900, 11_100);
    expect(anchorWhenLocalWins(agreeing, candidate, T + 10_000, BOUND)).toBe(agreeing);
    expect(anchorWhenLocalWins(null, candidate, T + 10_000, BOUND)).toEqual({
      bootId: 'b',
      serverMs: T + 10_000,
      mono: 11_000,
    });
    const wrong = anchorOf('b', T + HOUR, 900, 1_100);
    expect(anchorWhenLocalWins(wrong, candidate, T + 10_000, BOUND)).toEqual({
      bootId: 'b',
      serverMs: T + 10_000,
      mono: 11_000,
    });
  });

  it('an answer whose exchange took long says little: it moves the anchor only beyond its own uncertainty', () => {
    const current = anchorOf('b', T - 500, 900, 1_100); // the service's T at mono 1000
    // Sent at 0, answered 120 s later: its anchor sits at 60 s, good to about ±60 s.
    const slow: DateCandidate = {
      anchor: anchorOf('b', T + 100_000 - 500, 0, 120_000),
      sentMono: 0,
      receivedMono: 120_000,
    };
    expect(anchorAfter(current, slow)).toBe(current);
    const quick = answer(T + 100_000 + 40_000, 100_950); // 40 s off at mono 101_000, measured in 100 ms
    expect(anchorAfter(current, quick)).toBe(quick.anchor);
    expect(anchorAfter(null, slow)).toBe(slow.anchor);
  });

  it('offsets as people read them', () => {
    expect([30_000, -12 * 60_000, 2 * HOUR, 365 * 24 * HOUR].map(describeOffset)).toEqual([
      '30 s',
      '12 min',
      '2.0 h',
      '365 d',
    ]);
  });
});

describe('a wall-clock time that cannot be true', () => {
  const build = { at: Date.UTC(2026, 9, 1), what: 'build' as const };
  it('earlier than an anchored punch taken before it, or than the build, beyond the tolerance: in doubt', () => {
    const punch = { at: T, what: 'anchored_punch' as const };
    expect(unanchoredDoubt(Date.UTC(2000, 0, 1), [build, punch], { at: T + HOUR, anchored: false }, BOUND)).toEqual({
      kind: 'before_known',
      known: punch,
    });
    expect(unanchoredDoubt(Date.UTC(2026, 8, 1), [build], { at: T, anchored: false }, BOUND)).toEqual({
      kind: 'before_known',
      known: build,
    });
    // a minute slow: within it
    expect(unanchoredDoubt(T - 60_000, [build, punch], { at: T + HOUR, anchored: false }, BOUND)).toBeNull();
  });
  it('later than the present (the anchored time now, else the wall clock): in doubt; between: may be true', () => {
    expect(unanchoredDoubt(T + 3 * HOUR, [build], { at: T, anchored: true }, BOUND)).toEqual({
      kind: 'after_present',
      presentAt: T,
      presentAnchored: true,
    });
    // days offline: fine
    expect(unanchoredDoubt(T - 3 * 24 * HOUR, [build], { at: T, anchored: true }, BOUND)).toBeNull();
  });
});

describe('which deadlines a step of the wall clock moves', () => {
  it('a step forward larger than the time between the looks: readings up to halfway to the new clock are the old one', () => {
    expect(oldClockLatest({ wall: T, mono: 0 }, { wall: T + 1_000 + 2 * HOUR, mono: 1_000 }, 2 * HOUR)).toBe(
      T + 1_000 + (2 * HOUR - 1_000) / 2,
    );
  });
  it('a step back, or one not larger than the time between the looks, cannot be told apart: everything moves', () => {
    expect(oldClockLatest({ wall: T, mono: 0 }, { wall: T + 1_000 - 2 * HOUR, mono: 1_000 }, -2 * HOUR)).toBeNull();
    expect(oldClockLatest({ wall: T, mono: 0 }, { wall: T + 10_000 + 5_000, mono: 10_000 }, 5_000)).toBeNull();
  });
});
