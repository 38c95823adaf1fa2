import os from 'node:os';
import { terminalIdOf, type Config, type LoadedConfig } from '../config.js';
import { createLogger, type Logger } from '../log.js';
import { VERSION } from '../version.js';
import type { MockServer } from '../mock/mock-server.js';
import type { Agent } from './facade/agent.js';
import { buildAgent, realRuntime } from './build-agent.js';
import { adoptLegacyQueue } from './host/adopt-queue.js';
import type { AdminPin } from './bridge-handlers.js';
import type { ScreenSettings } from '../contract.js';
import type { TokenStore } from './host/token-store.js';
import type { MetricsServer } from './metrics/metrics-server.js';
import { readFleetNsr } from './journal/fleet-nsr.js';

/**
 * What the process that opens the agent brings. `tokens`: where a token set on the admin screen
 * is kept — the Electron main passes its safeStorage store; the CLI and the headless kiosk a 0600
 * file (the default).
 */
export type OpenDeps = {
  tokens?: TokenStore;
  /**
   * Serve `metrics.listen` when configured: the running terminal does, one-shot commands (flush, roster sync) do not.
   */
  metrics?: boolean;
};

export type Running = {
  agent: Agent;
  config: Config;
  demo: MockServer | null;
  log: Logger;
  /** The metrics and /healthz listener, when configured and it could listen. */
  metrics: MetricsServer | null;
  /** What the kiosk screen's admin login checks. */
  adminPin: AdminPin;
  /** What the kiosk screen is told about this terminal. */
  screen: ScreenSettings;
  shutdown(): Promise<void>;
};

/**
 * The demo's admin PIN, accepted only in demo mode and only while no admin PIN was set, so the
 * admin screen can be tried at once. Never stored: a real configuration on the same data
 * directory does not inherit it.
 */
export const DEMO_ADMIN_PIN = '2468';

/**
 * Loaded config → (a queue left in the old per-user directory adopted) → (the demo's mock when no
 * API is configured) → agent. Used by the CLI and the Electron main process.
 */
export async function openAgent(
  loaded: Pick<LoadedConfig, 'config' | 'demo'> & Partial<Pick<LoadedConfig, 'legacyDataDir' | 'proxyEnv'>>,
  deps: OpenDeps = {},
): Promise<Running> {
  const { config, demo } = loaded;
  const terminal = terminalIdOf(config);
  const log = createLogger({ level: config.logLevel, fields: { terminal } });
  // The first line of every run: which build, on which data (a fleet's logs say what runs where).
  log.info('timeclock-kiosk starting', {
    version: VERSION,
    terminal,
    host: os.hostname(),
    dataDir: config.dataDir,
    demo,
  });
  const runtime = realRuntime(log);
  await adoptLegacyQueue(loaded, runtime.clock, log);
  // The embedded mock (its server, seed and variants) is loaded only for the demo, never on a site's terminal.
  const demoSetup = demo ? await (await import('./host/demo.js')).startDemo(config, log) : null;
  const ready = demoSetup ? demoSetup.config : (config as Config & { api: NonNullable<Config['api']> });
  // The NSR mark in the fleet's Redis, read before the journal opens (at most 2 s; not for the demo's own API).
  const fleetNsr = demoSetup ? null : await readFleetNsr(ready, log);
  let agent: Agent;
  try {
    agent = buildAgent(
      ready,
      {
        ...runtime,
        ...(deps.tokens ? { tokens: deps.tokens } : {}),
        ...(loaded.proxyEnv ? { proxyEnv: loaded.proxyEnv } : {}),
      },
      { demo: demoSetup !== null, fleetNsr },
    );
  } catch (e) {
    await demoSetup?.mock.close();
    throw e;
  }
  const isDemo = demoSetup !== null;
  const listen = ready.metrics.listen;
  // Loaded only when served: prom-client is ~22 MB resident that a terminal without metrics never needs.
  const metrics =
    deps.metrics && listen
      ? await (await import('./metrics/metrics-server.js')).startMetricsServer({ listen, agent, log })
      : null;
  return {
    agent,
    config: ready,
    adminPin: {
      verify: async (pin) =>
        isDemo && !agent.admin.hasAdminPin() ? pin === DEMO_ADMIN_PIN : agent.admin.checkLoginPin(pin),
      // The demo has its own manager PIN until one is set.
      isSet: () => isDemo || agent.admin.hasAdminPin(),
    },
    screen: {
      language: ready.screen.language,
      wedge: ready.wedge,
      pinRequiredFor: ready.pin.requiredFor,
      adminEnabled: true,
      resultMs: ready.screen.resultMs,
      receiptMs: ready.screen.receiptMs,
      theme: ready.screen.theme,
      speech: ready.screen.speech,
      pinShowName: ready.pin.showName,
      idKinds: ready.identity.allowed.id,
      ...(ready.photo.mode === 'on-punch'
        ? {
            photo: {
              width: ready.photo.width,
              height: ready.photo.height,
              maxBytes: ready.photo.maxBytes,
              keepDays: ready.photo.keepDays,
            },
          }
        : {}),
    },
    demo: demoSetup?.mock ?? null,
    log,
    metrics,
    async shutdown() {
      // Stopping first: /healthz answers 503 "agent stopping" until the listener closes.
      try {
        await agent.stop();
      } finally {
        await metrics?.close();
        await demoSetup?.mock.close();
      }
    },
  };
}
