/**
 * The systemd notify protocol of the headless service (issue 13 item 8), on injected ticks and a
 * fake sender: what goes out, when, and that a failing systemd-notify never reaches the agent.
 */
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../src/log.js';
import { serviceNotifier, type Every, type NotifyEnv, type NotifySend } from '../../src/agent/status/service-notify.js';

/** Timers the test fires by hand. */
function fakeEvery() {
  const timers: { ms: number; fn: () => void; cancelled: boolean }[] = [];
  const every: Every = (ms, fn) => {
    const t = { ms, fn, cancelled: false };
    timers.push(t);
    return () => (t.cancelled = true);
  };
  const fire = async (n = 1) => {
    for (let i = 0; i < n; i++) {
      for (const t of timers) if (!t.cancelled) t.fn();
      await settle();
    }
  };
  return { every, timers, fire };
}

/** Lets the sender's promise chain run. */
const settle = () => new Promise<void>((r) => setImmediate(r));

function fakeLog() {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (msg: string) => void lines.push({ level, msg });
  const log: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { log, lines };
}

function rig(env: NotifyEnv, opts: { send?: NotifySend; alive?: () => string | null } = {}) {
  const sent: string[][] = [];
  const t = fakeEvery();
  const l = fakeLog();
  const send: NotifySend =
    opts.send ??
    ((fields) => {
      sent.push(fields);
      return Promise.resolve();
    });
  const n = serviceNotifier({ env, pid: 4242, log: l.log, alive: opts.alive ?? (() => 'ok'), send, every: t.every });
  return { n, sent, ...t, ...l };
}

const SOCKET = '/run/systemd/notify';

describe('serviceNotifier', () => {
  it('without NOTIFY_SOCKET does nothing at all', async () => {
    const r = rig({ WATCHDOG_USEC: '30000000' });
    expect(r.n.active).toBe(false);
    r.n.ready('x');
    await r.n.stopping();
    expect(r.sent).toEqual([]);
    expect(r.timers).toEqual([]);
  });

  it('sends READY=1 with its status once, however often ready() is called', async () => {
    const r = rig({ NOTIFY_SOCKET: SOCKET });
    expect(r.n.active).toBe(true);
    r.n.ready('taking punches; 3 waiting');
    r.n.ready('taking punches; 3 waiting');
    await settle();
    expect(r.sent).toEqual([['READY=1', 'STATUS=taking punches; 3 waiting']]);
    expect(r.timers).toHaveLength(1);
  });

  it('pings WATCHDOG=1 every half of WATCHDOG_USEC after READY=1, with STATUS= only when it changed', async () => {
    let waiting = 0;
    const r = rig(
      { NOTIFY_SOCKET: SOCKET, WATCHDOG_USEC: '30000000', WATCHDOG_PID: '4242' },
      { alive: () => `taking punches; ${waiting} waiting` },
    );
    await r.fire(); // before READY: the watchdog is not armed yet, and no timer exists
    expect(r.sent).toEqual([]);
    r.n.ready('taking punches; 0 waiting');
    await settle(); // READY=1 is out before the first tick
    expect(r.timers.map((t) => t.ms)).toEqual([15_000]);
    await r.fire(2);
    waiting = 2;
    await r.fire();
    expect(r.sent).toEqual([
      ['READY=1', 'STATUS=taking punches; 0 waiting'],
      ['WATCHDOG=1'],
      ['WATCHDOG=1'],
      ['WATCHDOG=1', 'STATUS=taking punches; 2 waiting'],
    ]);
  });

  it('the cadence follows WATCHDOG_USEC (400 ms -> every 200 ms)', () => {
    const r = rig({ NOTIFY_SOCKET: SOCKET, WATCHDOG_USEC: '400000' });
    r.n.ready('ok');
    expect(r.timers.map((t) => t.ms)).toEqual([200]);
  });

  it('does not ping for another process (WATCHDOG_PID mismatch), and says why once', async () => {
    const r = rig({ NOTIFY_SOCKET: SOCKET, WATCHDOG_USEC: '30000000', WATCHDOG_PID: '1' });
    r.n.ready('ok');
    await settle(); // READY=1 is out before the first tick
    await r.fire(3);
    expect(r.sent.flat()).toEqual(['READY=1', 'STATUS=ok']);
    expect(r.lines.filter((l) => l.level === 'warn' && /WATCHDOG_PID=1 is not this process/.test(l.msg))).toHaveLength(
      1,
    );
  });

  it('does not ping while the agent does not answer, and resumes when it does', async () => {
    let answer: 'ok' | 'null' | 'throw' = 'ok';
    const alive = () => {
      if (answer === 'throw') throw new Error('database is locked');
      return answer === 'null' ? null : 'fine';
    };
    const r = rig({ NOTIFY_SOCKET: SOCKET, WATCHDOG_USEC: '2000000' }, { alive });
    r.n.ready('fine');
    await settle();
    answer = 'throw';
    await r.fire(2);
    answer = 'null';
    await r.fire();
    answer = 'ok';
    await r.fire();
    expect(r.sent.slice(1)).toEqual([
      ['STATUS=not answering: database is locked'],
      ['STATUS=not answering: the agent is not running'],
      ['WATCHDOG=1', 'STATUS=fine'],
    ]);
  });

  it('sends STOPPING=1 when shutdown begins, and nothing after', async () => {
    const r = rig({ NOTIFY_SOCKET: SOCKET, WATCHDOG_USEC: '1000000' });
    r.n.ready('ok');
    await settle(); // READY=1 is out before the first tick
    await r.fire();
    await r.n.stopping();
    await r.n.stopping();
    await r.fire(2);
    expect(r.sent).toEqual([['READY=1', 'STATUS=ok'], ['WATCHDOG=1'], ['STOPPING=1', 'STATUS=stopping']]);
    expect(r.timers.every((t) => t.cancelled)).toBe(true);
  });

  it('a failing systemd-notify never throws into the agent and is logged once per run of failures', async () => {
    let fail: 'reject' | 'throw' | 'no' = 'reject';
    const calls: string[][] = [];
    const send: NotifySend = (fields) => {
      calls.push(fields);
      if (fail === 'throw') throw new Error('spawn EAGAIN');
      return fail === 'reject' ? Promise.reject(new Error('spawn systemd-notify ENOENT')) : Promise.resolve();
    };
    const r = rig({ NOTIFY_SOCKET: SOCKET, WATCHDOG_USEC: '1000000' }, { send });
    expect(() => r.n.ready('ok')).not.toThrow();
    await settle();
    await r.fire(3);
    fail = 'throw';
    await r.fire(2);
    await expect(r.n.stopping()).resolves.toBeUndefined();
    expect(calls).toHaveLength(7); // every message was tried: READY, 5 pings, STOPPING
    const warns = r.lines.filter((l) => l.level === 'warn');
    expect(warns).toHaveLength(1);
    expect(warns[0]?.msg).toMatch(/could not notify systemd/);
    // It works again: said once; a later failure is news again.
    const r2 = rig({ NOTIFY_SOCKET: SOCKET, WATCHDOG_USEC: '1000000' }, { send });
    fail = 'reject';
    r2.n.ready('ok');
    await settle(); // READY=1 is out before the first tick
    await r2.fire();
    fail = 'no';
    await r2.fire(2);
    fail = 'reject';
    await r2.fire(2);
    expect(r2.lines.map((l) => `${l.level}: ${l.msg.split(' (')[0]}`)).toEqual([
      'warn: could not notify systemd',
      'info: systemd-notify works again',
      'warn: could not notify systemd',
    ]);
  });

  it('skips a tick while a message is still on its way, rather than piling up processes', async () => {
    const pending: (() => void)[] = [];
    const sent: string[][] = [];
    const send: NotifySend = (fields) => {
      sent.push(fields);
      return new Promise<void>((resolve) => pending.push(resolve));
    };
    const r = rig({ NOTIFY_SOCKET: SOCKET, WATCHDOG_USEC: '1000000' }, { send });
    r.n.ready('ok');
    await r.fire(3);
    expect(sent).toEqual([['READY=1', 'STATUS=ok']]);
    pending.shift()?.();
    await settle();
    await r.fire();
    expect(sent).toEqual([['READY=1', 'STATUS=ok'], ['WATCHDOG=1']]);
  });
});
