/**
 * The machine's zone (agent/host/runtime.ts), the last fallback of every zone choice: read once per TZ value, since
 * reading it costs a formatter and presence asks at every round, yet a TZ assigned later is followed as Node follows
 * it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { systemTimeZone } from '../../src/agent/host/runtime.js';

const before = process.env.TZ;
afterEach(() => {
  if (before === undefined) delete process.env.TZ;
  else process.env.TZ = before;
});

describe("the machine's time zone", () => {
  it('is the zone Node uses, and follows TZ when it is assigned', () => {
    expect(systemTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    process.env.TZ = 'America/Manaus';
    expect(systemTimeZone()).toBe('America/Manaus');
    process.env.TZ = 'Asia/Tokyo';
    expect(systemTimeZone()).toBe('Asia/Tokyo');
    expect(systemTimeZone()).toBe('Asia/Tokyo');
  });
});
