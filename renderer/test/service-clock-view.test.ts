import { describe, expect, it } from 'vitest';
import { serviceClockWarning } from '../src/connection-view.js';

const base = {
  at: Date.UTC(2026, 10, 23, 13, 0, 0),
  offsetMs: null,
  jumpMs: null,
  ntp: 'yes' as const,
  boundMs: 300_000,
};

describe("the admin screen's line on the service's clock", () => {
  it("nothing while the service's clock is in use", () => {
    expect(serviceClockWarning(null, 'en')).toBeNull();
    expect(serviceClockWarning(undefined, 'en')).toBeNull();
    expect(serviceClockWarning({ ...base, state: 'ok', offsetMs: 1_000 }, 'en')).toBeNull();
  });
  it("off: how far and which way, that this terminal's synchronised clock is kept, in the screen's language", () => {
    expect(serviceClockWarning({ ...base, state: 'off', offsetMs: 3_600_000 }, 'en')).toMatch(
      /^The service's clock is 1 hr ahead of this terminal's\. This terminal's clock is synchronised \(NTP\) and is kept/,
    );
    expect(serviceClockWarning({ ...base, state: 'off', offsetMs: -3_600_000 }, 'pt-BR')).toMatch(
      /^O relógio do serviço está 1 h atrasado/,
    );
  });
  it('no usable Date, and a jump waiting for a second answer', () => {
    expect(serviceClockWarning({ ...base, state: 'no_date' }, 'es')).toMatch(
      /^El servicio no envía un encabezado Date utilizable/,
    );
    expect(
      serviceClockWarning({ ...base, state: 'unconfirmed', offsetMs: 7_200_000, jumpMs: 7_200_000, ntp: 'no' }, 'en'),
    ).toMatch(/^The service's clock jumped by 2 hr;/);
  });
});
