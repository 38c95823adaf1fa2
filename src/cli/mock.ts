import { startMockServer } from '../mock/mock-server.js';
import { demoSeed, generatedSeed } from '../mock/seed.js';
import { Exit, intFlag, UsageError, type CliOptions } from './options.js';

/** The mock T&A API on its own, for manual tests and for pointing a terminal at it. */
export async function runMock(opts: CliOptions): Promise<number> {
  const host = opts.host ?? '127.0.0.1';
  if (!/^(127\.\d+\.\d+\.\d+|localhost|::1)$/.test(host)) throw new UsageError('--host must be a loopback address: the mock has unauthenticated control endpoints');
  const employees = opts.employees === undefined ? null : intFlag('employees', opts.employees, 0, 1, 1_000_000);
  const sites = intFlag('sites', opts.sites, 1, 1, 1_000);
  const mock = await startMockServer({
    host,
    port: intFlag('port', opts.port, 0, 0, 65_535),
    tokens: [opts.token ?? 'demo-token'],
    rateLimit: { limit: intFlag('limit', opts.limit, 60, 1, 1_000_000), windowMs: intFlag('window-ms', opts['window-ms'], 60_000, 1, 3_600_000) },
    seed: employees === null ? demoSeed() : generatedSeed({ employees, sites }),
  });
  process.stdout.write(`mock T&A API listening at ${mock.url} (token ${opts.token ?? 'demo-token'}); control: ${mock.origin}/__mock/records, /__mock/requests\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await mock.close();
  return Exit.ok;
}
