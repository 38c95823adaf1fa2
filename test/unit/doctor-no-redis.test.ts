/**
 * Doctor without Redis (issue 24 item 4): a terminal configured at a share of the account is told to share the window
 * in Redis.
 */
import { describe, expect, it } from 'vitest';
import { fleetChecks } from '../../src/cli/doctor/fleet-checks.js';
import { configSchema, type Config } from '../../src/config.js';

const config = (rateLimit: Record<string, unknown>): Config =>
  configSchema.parse({
    dataDir: '/tmp/none',
    api: { baseUrl: 'https://api.example.com/v2.1', token: 't' },
    rateLimit: { windowMs: 60_000, ...rateLimit },
  });
const neverAsked = () => Promise.reject(new Error('no Redis is configured: nothing to probe'));

describe('doctor, no Redis configured', () => {
  it('a terminal at a share of the account limit gets a warning that recommends the shared window', async () => {
    const lines = await fleetChecks(config({ limit: 20, accountLimit: 60 }), 't', false, neverAsked);
    expect(lines).toEqual([
      { check: 'redis', status: 'warn', detail: expect.stringContaining('set rateLimit.redisUrl') },
    ]);
    expect(lines[0]?.detail).toContain("20 of the account's 60");
  });

  it('a terminal at the whole limit (alone) and the demo get no line', async () => {
    expect(await fleetChecks(config({ limit: 60, accountLimit: 60 }), 't', false, neverAsked)).toEqual([]);
    expect(await fleetChecks(config({ limit: 20, accountLimit: 60 }), 't', true, neverAsked)).toEqual([]);
  });
});
