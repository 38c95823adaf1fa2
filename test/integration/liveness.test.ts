import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { networkFor } from '../../src/api/dispatcher.js';
import { LivenessWatch, routeProbe, tcpProbe, type Reachability } from '../../src/sync/delivery/liveness.js';
import { closedPort } from '../helpers/doctor.js';
import { startConnectProxy } from '../helpers/network-edge.js';

/** A real listener on loopback that can go away and come back on the same port. */
async function listener(port = 0): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer((s) => s.destroy());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as net.AddressInfo).port;
  return { port: actual, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const open: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close().catch(() => undefined);
});

describe('knowing the service is gone without a request', () => {
  it('a TCP probe says whether the host takes connections, and why not', async () => {
    const s = await listener();
    expect(await tcpProbe(`http://127.0.0.1:${s.port}/api`, 1_000)()).toEqual({ ok: true });
    await s.close();
    const r = await tcpProbe(`http://127.0.0.1:${s.port}/api`, 1_000)();
    expect(r).toEqual({ ok: false, reason: `ECONNREFUSED 127.0.0.1:${s.port}` });
  });

  it('a host that never answers is given up after the timeout', async () => {
    // 192.0.2.0/24 is TEST-NET-1: nothing answers there (or the network says so at once).
    const r = await tcpProbe('https://192.0.2.1', 300)();
    expect(r.ok).toBe(false);
  });

  it('turns unreachable after two failed probes in a row, and reachable again after one success', async () => {
    const s = await listener();
    const port = s.port;
    let now = 1_000;
    const changes: Reachability[] = [];
    const watch = new LivenessWatch({
      probe: tcpProbe(`http://127.0.0.1:${port}`, 1_000),
      now: () => now,
      failuresToOffline: 2,
      onChange: (r) => changes.push(r),
    });
    expect(await watch.check()).toEqual({ reachable: true, at: 1_000, reason: null });
    await s.close();
    now = 6_000;
    expect((await watch.check())?.reachable).toBe(true); // one failure may be a blip
    now = 11_000;
    expect(await watch.check()).toEqual({ reachable: false, at: 11_000, reason: `ECONNREFUSED 127.0.0.1:${port}` });
    now = 16_000;
    await watch.check();
    open.push(await listener(port));
    now = 21_000;
    expect(await watch.check()).toEqual({ reachable: true, at: 21_000, reason: null });
    // Told once per change, not once per probe.
    expect(changes.map((c) => `${c.reachable}@${c.at}`)).toEqual(['true@1000', 'false@11000', 'true@21000']);
  });
});

describe('liveness through a proxy: a CONNECT tunnel to the API host, opened and closed', () => {
  it('open when the proxy tunnels; refused or unreachable names the proxy; without a proxy, the TCP connect', async () => {
    const api = await listener();
    open.push(api);
    const proxy = await startConnectProxy({ hosts: { 'api.site.test': '127.0.0.1' } });
    open.push(proxy);
    const baseUrl = `http://api.site.test:${api.port}/v2.1`;
    const probe = routeProbe(
      baseUrl,
      networkFor(baseUrl, { proxy: `http://u:pw-secret@127.0.0.1:${proxy.port}` }, {}),
      1_000,
    );
    expect(await probe()).toEqual({ ok: true });
    expect(proxy.tunnels).toEqual([
      {
        target: `api.site.test:${api.port}`,
        authorization: `Basic ${Buffer.from('u:pw-secret').toString('base64')}`,
        status: 200,
      },
    ]);

    proxy.refuse = 403;
    const refused = await probe();
    expect(refused).toEqual({
      ok: false,
      reason: expect.stringMatching(
        new RegExp(
          `^proxy http://\\*\\*\\*@127\\.0\\.0\\.1:${proxy.port} refused CONNECT api\\.site\\.test:${api.port} \\(403`,
        ),
      ),
    });
    expect(JSON.stringify(refused)).not.toContain('pw-secret');

    const gone = await closedPort();
    const unreachable = await routeProbe(
      baseUrl,
      networkFor(baseUrl, { proxy: `http://127.0.0.1:${gone}` }, {}),
      1_000,
    )();
    expect(unreachable).toEqual({ ok: false, reason: `proxy http://127.0.0.1:${gone} unreachable (ECONNREFUSED)` });

    // NO_PROXY: the direct TCP connect (which here cannot resolve the name the proxy knows).
    const direct = await routeProbe(
      baseUrl,
      networkFor(
        baseUrl,
        { proxy: `http://127.0.0.1:${proxy.port}` },
        { noProxy: { value: 'site.test', from: 'NO_PROXY' } },
      ),
      1_000,
    )();
    expect(direct).toEqual({ ok: false, reason: expect.stringMatching(/^(ENOTFOUND|EAI_AGAIN) api\.site\.test:/) });
    expect(proxy.tunnels).toHaveLength(2);
  });
});
