import { describe, expect, it } from 'vitest';
import { ServiceClockReport, serviceClockSentence } from '../../src/agent/time/service-clock.js';
import type { ServiceClockRecord } from '../../src/store/settings/setting-keys.js';

const T = Date.UTC(2026, 10, 23, 13, 0, 0);
const YEAR = 365 * 24 * 3_600_000;
const rec = (
  state: ServiceClockRecord['state'],
  at: number,
  offsetMs: number | null = state === 'off' ? YEAR : 0,
): ServiceClockRecord => ({ at, state, offsetMs, jumpMs: null, ntp: 'yes', boundMs: 300_000 });

function rig() {
  const said: Array<{ level: string; msg: string }> = [];
  const written: ServiceClockRecord[] = [];
  const errors: string[] = [];
  const at = (level: string) => (msg: string) => void said.push({ level, msg });
  const report = new ServiceClockReport({
    log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
    write: (r) => void written.push(r),
    noteError: (m) => void errors.push(m),
    changed: () => {},
  });
  return { report, said, written, errors };
}

describe("what the terminal says about the service's clock", () => {
  it('a change is recorded every time; said once: a service flipping between two clocks (a load balancer) is said once an hour', () => {
    const { report, said, written, errors } = rig();
    let before: ServiceClockRecord | null = null;
    for (let i = 0; i < 20; i++) {
      const now = rec(i % 2 === 0 ? 'off' : 'ok', T + i * 60_000);
      report.note(now, before);
      before = now;
    }
    expect(written).toHaveLength(20);
    expect(said.filter((l) => l.level === 'warn')).toHaveLength(1);
    expect(said.filter((l) => l.level === 'info')).toHaveLength(1); // back in use, said once too
    expect(errors).toEqual([serviceClockSentence(rec('off', T))]);
    report.note(rec('off', T + 2 * 3_600_000), rec('ok', T + 2 * 3_600_000 - 1));
    expect(said.filter((l) => l.level === 'warn')).toHaveLength(2); // an hour later: said again
  });

  it('the sentences status and the log use', () => {
    expect(serviceClockSentence(rec('off', T))).toMatch(
      /^the service's clock is off by 365 d \(ahead, more than clock\.serviceSkewBoundMs 5 min\); this terminal's clock is NTP-synchronised and is kept/,
    );
    expect(serviceClockSentence({ ...rec('no_date', T, null), header: null })).toBe(
      "the service sends no usable Date header; punches sent at this terminal's clock, marked unanchored",
    );
    expect(serviceClockSentence({ ...rec('unconfirmed', T, 7_200_000), jumpMs: 7_200_000, ntp: 'no' })).toMatch(
      /^the service's Date is 2\.0 h ahead of the time in force; waiting for a second answer/,
    );
  });
});
