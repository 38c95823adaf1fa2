/**
 * The one-time code that opens the kiosk screen without the page token on a command line (issue 25):
 * traded once, within two minutes, for the token; refused when unknown, used, expired or asked
 * from another origin or host. The real web bridge on 127.0.0.1, a stepped clock.
 */
import { describe, expect, it } from 'vitest';
import { SCREEN_CODE_PATH } from '../../src/contract.js';
import { CODE_TTL_MS } from '../../src/web/one-time-codes.js';
import { errorOf, webBridgeRig } from '../helpers/web-bridge-rig.js';

const { send, setup, api } = webBridgeRig();

/** The exchange as the page makes it (fetch: its answer holds the token, kept out of the rig's record of answers). */
async function trade(
  origin: string,
  code: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; token: string | null }> {
  const res = await fetch(`${origin}${SCREEN_CODE_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ code }),
  });
  const body = (await res.json()) as { token?: string };
  return { status: res.status, token: body.token ?? null };
}

const codeOf = (url: string): string => new URL(url).searchParams.get('c') ?? '';

describe('the screen’s one-time code', () => {
  it('is traded once for the page token, which then works; a second use, a made-up code and an expired code are refused', async () => {
    const { bridge, clock } = await setup();
    const url = bridge.urlWithCode();
    expect(url).toMatch(new RegExp(`^${bridge.origin}/\\?c=[0-9a-f]{32}$`));
    expect(url).not.toContain(bridge.token);
    expect(bridge.address).toBe(`${bridge.origin}/`);

    const first = await trade(bridge.origin, codeOf(url));
    expect(first).toEqual({ status: 200, token: bridge.token });
    expect((await api(bridge, 'status', {}, { 'x-kiosk-token': first.token ?? '' })).status).toBe(200);
    expect(await trade(bridge.origin, codeOf(url))).toEqual({ status: 403, token: null });
    expect(await trade(bridge.origin, 'ab'.repeat(16))).toEqual({ status: 403, token: null });

    // Each browser start gets its own code; one left unused expires.
    const late = bridge.urlWithCode();
    expect(codeOf(late)).not.toBe(codeOf(url));
    clock.t += CODE_TTL_MS;
    expect(await trade(bridge.origin, codeOf(late))).toEqual({ status: 403, token: null });
    const inTime = bridge.urlWithCode();
    clock.t += CODE_TTL_MS - 1;
    expect((await trade(bridge.origin, codeOf(inTime))).status).toBe(200);
  });

  it('is asked only by POST of JSON from our own origin and Host; a refused ask does not spend the code', async () => {
    const { bridge } = await setup();
    const code = codeOf(bridge.urlWithCode());
    const body = JSON.stringify({ code });
    const port = new URL(bridge.origin).port;
    const refused: Array<{ method: string; path: string; headers: Record<string, string>; status: number }> = [
      { method: 'GET', path: `${SCREEN_CODE_PATH}?c=${code}`, headers: {}, status: 405 },
      { method: 'POST', path: SCREEN_CODE_PATH, headers: { 'content-type': 'text/plain' }, status: 415 },
      {
        method: 'POST',
        path: SCREEN_CODE_PATH,
        headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
        status: 403,
      },
      {
        method: 'POST',
        path: SCREEN_CODE_PATH,
        headers: { 'content-type': 'application/json', host: `localhost:${port}` },
        status: 403,
      },
    ];
    for (const r of refused)
      expect(
        (
          await send(bridge.origin, {
            method: r.method,
            path: r.path,
            headers: r.headers,
            body: r.method === 'POST' ? body : undefined,
          })
        ).status,
        JSON.stringify(r),
      ).toBe(r.status);
    const malformed = await send(bridge.origin, {
      method: 'POST',
      path: SCREEN_CODE_PATH,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'x', token: 1 }),
    });
    expect(malformed.status).toBe(400);
    expect(errorOf(malformed).code).toBe('bad_request');
    expect((await trade(bridge.origin, code, { origin: bridge.origin })).status).toBe(200);
  });
});
