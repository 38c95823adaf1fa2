import { execFile } from 'node:child_process';
import { withoutSecrets } from '../../config.js';
import type { Logger } from '../../log.js';
import type { AgentStatus } from './status.js';

/**
 * systemd's notify protocol for the headless service (issue 13 item 8): READY=1 once punches can
 * be taken, WATCHDOG=1 while the agent answers, STOPPING=1 when shutdown begins, STATUS= for
 * `systemctl status`. Without NOTIFY_SOCKET (not under systemd, or Type=simple) nothing happens.
 */

/** Sends one notification (its VARIABLE=VALUE fields); rejects when it could not. The I/O edge. */
export type NotifySend = (fields: string[]) => Promise<void>;
/** Calls `fn` every `ms` until the returned cancel is called. Injected so tests drive the ticks. */
export type Every = (ms: number, fn: () => void) => () => void;
/**
 * Asks the agent whether it is alive: a STATUS text when it answers, null (or a throw) when it
 * does not. Called on each tick, so a ping proves the event loop ran and the agent answered.
 */
export type Liveness = () => string | null;

/** The process environment: NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID are read. */
export type NotifyEnv = Readonly<Record<string, string | undefined>>;

export type ServiceNotifierOptions = {
  env: NotifyEnv;
  pid: number;
  log: Logger;
  alive: Liveness;
  send?: NotifySend;
  every?: Every;
};

export interface ServiceNotifier {
  /** NOTIFY_SOCKET is set: systemd waits for READY=1. */
  readonly active: boolean;
  /** Start-up is complete (first call only); the watchdog pings start with it. */
  ready(status: string): void;
  /** Shutdown begins: no more pings; resolves once STOPPING=1 went out (or failed). */
  stopping(): Promise<void>;
}

/** Without a watchdog, STATUS= is still brought up to date this often. */
const STATUS_EVERY_MS = 30_000;
/**
 * systemd-notify waits for the manager to have read the message; a manager that does not answer is not waited for
 * longer.
 */
const SEND_TIMEOUT_MS = 5_000;

/** The STATUS= line `systemctl status` shows: what a site manager asks first. */
export function serviceStatusText(s: AgentStatus): string {
  const parts = [`taking punches; ${s.unsent} waiting`];
  if (s.online === false) parts.push('offline');
  if (s.authRefused) parts.push('API token refused');
  if (!s.roster.complete) parts.push('roster incomplete');
  if (s.integrity?.result === 'damaged') parts.push('DATABASE DAMAGED');
  return parts.join('; ');
}

/** `systemd-notify VAR=VALUE...`: Node cannot send a unix datagram itself. */
export function systemdNotifySend(socket: string): NotifySend {
  // Not --no-block: systemd-notify then waits until the manager has read the message, so it is
  // not lost when systemd looks up the (by then exited) sender to find its unit. Its environment
  // has no secret of ours: it needs NOTIFY_SOCKET and PATH, not the API token.
  return (fields) =>
    new Promise((resolve, reject) => {
      execFile(
        'systemd-notify',
        fields,
        { timeout: SEND_TIMEOUT_MS, env: { ...withoutSecrets(process.env), NOTIFY_SOCKET: socket } },
        (err) => (err ? reject(err) : resolve()),
      );
    });
}

const defaultEvery: Every = (ms, fn) => {
  const t = setInterval(fn, ms);
  t.unref(); // the pings never keep a stopping process alive
  return () => clearInterval(t);
};

/** The watchdog interval in ms (half of WATCHDOG_USEC, as sd_watchdog_enabled(3) advises), or null with the reason. */
function watchdogEveryMs(env: NotifyEnv, pid: number): { ms: number } | { ms: null; why: string | null } {
  if (env.WATCHDOG_USEC === undefined || env.WATCHDOG_USEC === '') return { ms: null, why: null };
  const usec = Number(env.WATCHDOG_USEC);
  if (!Number.isSafeInteger(usec) || usec <= 0)
    return { ms: null, why: `WATCHDOG_USEC=${env.WATCHDOG_USEC} is not a number of microseconds` };
  // The watchdog is the main process's: a child that inherited the variables must not ping for it.
  if (env.WATCHDOG_PID !== undefined && env.WATCHDOG_PID !== '' && Number(env.WATCHDOG_PID) !== pid) {
    return {
      ms: null,
      why: `WATCHDOG_PID=${env.WATCHDOG_PID} is not this process (${pid}); a wrapper must exec the runtime, not run it as a child`,
    };
  }
  return { ms: Math.min(Math.max(1, Math.floor(usec / 2_000)), 2 ** 31 - 1) };
}

export function serviceNotifier(o: ServiceNotifierOptions): ServiceNotifier {
  const socket = o.env.NOTIFY_SOCKET;
  if (!socket) return { active: false, ready: () => {}, stopping: () => Promise.resolve() };
  const send = o.send ?? systemdNotifySend(socket);
  const every = o.every ?? defaultEvery;
  const wd = watchdogEveryMs(o.env, o.pid);
  let state: 'starting' | 'running' | 'stopping' = 'starting';
  let cancel: (() => void) | null = null;
  let lastStatus: string | null = null;
  let inFlight = 0;
  let failing = false;
  // One message after the other, so READY=1 always precedes the pings and STOPPING=1 follows them.
  let chain: Promise<void> = Promise.resolve();

  const enqueue = (fields: string[]): Promise<void> => {
    inFlight++;
    chain = chain.then(async () => {
      try {
        await send(fields);
        if (failing) o.log.info('systemd-notify works again');
        failing = false;
      } catch (e) {
        // Once per run of failures, not every tick: a missing systemd-notify would fill the journal.
        if (!failing)
          o.log.warn(
            'could not notify systemd (systemd-notify failed); the service watchdog may restart the terminal',
            { fields: fields.join(' '), error: (e as Error).message },
          );
        failing = true;
      } finally {
        inFlight--;
      }
    });
    return chain;
  };

  const probe = (): { ok: true; status: string } | { ok: false; why: string } => {
    try {
      const s = o.alive();
      return s === null ? { ok: false, why: 'the agent is not running' } : { ok: true, status: s };
    } catch (e) {
      return { ok: false, why: (e as Error).message };
    }
  };

  const tick = () => {
    // A send still under way (systemd-notify slow to answer): skip rather than pile processes up.
    if (state !== 'running' || inFlight > 0) return;
    const p = probe();
    const status = p.ok ? p.status : `not answering: ${p.why}`;
    const fields: string[] = [];
    // No ping while the agent does not answer: systemd restarts it after WatchdogSec.
    if (p.ok && wd.ms !== null) fields.push('WATCHDOG=1');
    if (status !== lastStatus) fields.push(`STATUS=${status}`);
    lastStatus = status;
    if (fields.length > 0) void enqueue(fields);
  };

  return {
    active: true,
    ready(status) {
      if (state !== 'starting') return;
      state = 'running';
      lastStatus = status;
      void enqueue(['READY=1', `STATUS=${status}`]);
      if (wd.ms === null && wd.why) o.log.warn(`no watchdog pings: ${wd.why}`);
      cancel = every(wd.ms ?? STATUS_EVERY_MS, tick);
    },
    stopping() {
      if (state === 'stopping') return chain;
      state = 'stopping';
      cancel?.();
      cancel = null;
      return enqueue(['STOPPING=1', 'STATUS=stopping']);
    },
  };
}
