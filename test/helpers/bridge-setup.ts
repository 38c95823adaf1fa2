import fs from 'node:fs';
import path from 'node:path';
import type { Agent } from '../../src/agent/facade/agent.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { testAgent, type TestAgentOptions } from './agent.js';
import { tempDir } from './temp.js';

/**
 * What both bridges' tests stand on: the mock with the demo roster, a started agent with
 * `apiToken`, and a renderer folder holding `files`. Cleanups go to `cleanups`, last first.
 */
export async function agentWithRenderer(
  cleanups: Array<() => Promise<void> | void>,
  apiToken: string,
  files: Record<string, string>,
  /** More agent options, given the agent's data directory (e.g. a token store in it). */
  more: (dataDir: string) => Partial<TestAgentOptions> = () => ({}),
): Promise<{ mock: MockServer; agent: Agent; root: string; dataDir: string }> {
  const mock = await startMockServer({
    rateLimit: { limit: 60, windowMs: 1_000 },
    seed: demoSeed(),
    tokens: [apiToken],
  });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const dataDir = path.join(t.dir, 'data');
  const agent = testAgent({ dataDir, mock, token: apiToken, ...more(dataDir) });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  const root = path.join(t.dir, 'renderer');
  fs.mkdirSync(root);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(root, name), text);
  return { mock, agent, root, dataDir };
}
