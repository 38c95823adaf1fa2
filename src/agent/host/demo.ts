import { defaultApiDialect } from '../../api/shapes.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { startMockServer, type MockServer } from '../../mock/mock-server.js';
import { DEMO_SITE_ID, demoSeed } from '../../mock/seed.js';

export const DEMO_TOKEN = 'demo-token';

export type DemoSetup = { config: Config & { api: NonNullable<Config['api']> }; mock: MockServer };

/**
 * The demo: the embedded mock API on a loopback port, seeded with the demo site and employees,
 * with the same rate limit as the terminal's budget, and a configuration pointed at it.
 */
export async function startDemo(config: Config, log: Logger): Promise<DemoSetup> {
  const mock = await startMockServer({
    port: config.demo.port,
    tokens: [DEMO_TOKEN],
    rateLimit: { limit: config.rateLimit.limit, windowMs: config.rateLimit.windowMs },
    seed: demoSeed(),
  });
  log.info('demo: embedded mock API started', { url: mock.url });
  return {
    mock,
    config: {
      ...config,
      siteId: config.siteId ?? DEMO_SITE_ID,
      api: {
        baseUrl: mock.url,
        token: DEMO_TOKEN,
        timeoutMs: 5_000,
        dialect: defaultApiDialect,
        allowInsecure: false,
        livenessEveryMs: config.api?.livenessEveryMs ?? 5_000,
      },
    },
  };
}
