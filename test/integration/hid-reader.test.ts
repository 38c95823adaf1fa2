import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { encodeBootReports } from '../../src/input/capture-file.js';
import { QUIET_RESET_MS } from '../../src/input/hid-reader.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { testAgent } from '../helpers/agent.js';
import { runCli } from '../helpers/cli.js';
import { FakeHid } from '../helpers/fake-hid.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const READER = {
  vendorId: 0xffff,
  productId: 0x0035,
  path: '/dev/hidraw7',
  product: 'RFID Reader',
  usagePage: 1,
  usage: 6,
  release: 0,
  interface: 0,
};
const scan = (code: string) =>
  encodeBootReports(code, { layout: 8, terminator: 'enter', rollover: true }).map((r) => r.bytes);

async function setup(): Promise<{ mock: MockServer; agent: Agent; hid: FakeHid }> {
  const mock = await startMockServer({ rateLimit: { limit: 60, windowMs: 1_000 } });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const hid = new FakeHid(READER);
  const agent = testAgent({
    dataDir: t.dir,
    mock,
    hid,
    settings: { readers: [{ name: 'door', match: { vendorId: '0xffff', productId: '0x0035' }, reconnectMs: 200 }] },
  });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  return { mock, agent, hid };
}

const door = (agent: Agent) => agent.status().readers.find((r) => r.name === 'door');

describe('HID badge reader', () => {
  it('punches from scans, survives an unplug and a replug without a restart, and status shows the gap', async () => {
    const { mock, agent, hid } = await setup();
    expect(door(agent)).toMatchObject({ connected: false });
    hid.plug();
    await waitFor(() => door(agent)?.connected === true, 'reader found', 3_000);
    expect(door(agent)?.device).toMatch(/ffff:0035 RFID Reader/);

    expect(hid.send(scan('1001'))).toBe(true);
    await waitFor(() => mock.records().some((r) => r.employee_external_id === '1001'), 'scan punched and delivered');

    hid.unplug();
    await waitFor(() => door(agent)?.connected === false, 'unplug noticed');
    expect(door(agent)).toMatchObject({ disconnects: 1, lastDisconnectAt: expect.any(Number) });
    expect(hid.send(scan('1002'))).toBe(false); // nothing is listening while it is away

    hid.plug();
    await waitFor(() => door(agent)?.connected === true, 'reader found again', 3_000);
    hid.send(scan('1002'));
    await waitFor(() => mock.records().some((r) => r.employee_external_id === '1002'), 'scan after replug punched');
    expect(door(agent)).toMatchObject({ scans: 2, disconnects: 1 });
  });

  it('garbage reports are dropped and counted; nothing is punched and the next scan works', async () => {
    const { agent, hid } = await setup();
    hid.plug();
    await waitFor(() => door(agent)?.connected === true, 'reader found', 3_000);
    hid.send([
      new Uint8Array([0, 0, 0x04]),
      new Uint8Array(12),
      new Uint8Array([0, 0, 0x28, 0, 0, 0, 0, 0]),
      new Uint8Array(8),
    ]);
    hid.send(Array.from({ length: 200 }, (_, i) => new Uint8Array([0, 0, i % 2 ? 0 : 0x1e, 0, 0, 0, 0, 0])));
    await waitFor(() => (door(agent)?.errors ?? 0) >= 3, 'errors counted');
    expect(agent.status().queue.pending + agent.status().queue.sent).toBe(0);
    // A scan right behind the garbage would be swallowed with it (never turned into a wrong code);
    // after a quiet moment the reader starts afresh.
    await new Promise((r) => setTimeout(r, QUIET_RESET_MS + 100));
    hid.send(scan('1003'));
    await waitFor(() => agent.status().queue.pending + agent.status().queue.sent === 1, 'next scan punched');
  });

  it('the same scan arriving through hidraw and as keystrokes counts once', async () => {
    const { mock, agent } = await setup();
    const first = await agent.scanned('1004', 'hid:door');
    const echo = await agent.scanned('1004', 'wedge');
    expect(first).toMatchObject({ ok: true, repeat: false });
    expect(echo).toBeNull();
    await agent.flush({ maxWaitMs: 5_000 });
    expect(mock.records().filter((r) => r.employee_external_id === '1004')).toHaveLength(1);
  });
});

describe('hid commands', () => {
  it('hid list loads node-hid and exits 0 on a machine without readers', async () => {
    const r = await runCli(['hid', 'list'], {});
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/no HID devices found|vendor:product/);
    const json = await runCli(['hid', 'list', '--json'], {});
    expect(Array.isArray(JSON.parse(json.stdout))).toBe(true);
  });

  it('hid replay prints each decoded code of a capture, and the dropped garbage', async () => {
    const r = await runCli(['hid', 'replay', 'test/fixtures/captures/card-10-digits-enter.hex'], {});
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/code 0004817263/);
    expect(r.stdout).toMatch(/1 codes, 0 dropped/);
    expect((await runCli(['hid', 'replay', 'no-such-file.hex'], {})).code).toBe(2);
  });
});
