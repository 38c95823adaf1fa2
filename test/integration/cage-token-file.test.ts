/**
 * The screen's session as the hardened cage unit starts it (issue 25, item 6): no token in the
 * environment, only TIMECLOCK_ENV_FILE naming the credential systemd copied
 * (/etc/timeclock-kiosk/env → $CREDENTIALS_DIRECTORY/timeclock-env). The built `timeclock start
 * --headless --browser` (browser mode, which runs in the session) reaches the real mock API with
 * the file's token, and neither the agent's nor the browser's environment holds it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/mock/mock-server.js';
import { spawnCli } from '../helpers/cli.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const TOKEN = 'cage-credential-token-5e2a90c4';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

describe('the token from the credential file', () => {
  it('reaches the API, and no process of the session has it in its environment', async () => {
    const mock = await startMockServer({ tokens: [TOKEN] });
    cleanups.push(() => mock.close());
    const t = tempDir('timeclock-cage-token-');
    cleanups.push(t.cleanup);
    const credential = path.join(t.dir, 'credentials', 'timeclock-env');
    fs.mkdirSync(path.dirname(credential));
    fs.writeFileSync(
      credential,
      `# The API token, read by systemd before it starts the terminal (root only, mode 0600).\nTIMECLOCK_API_URL=${mock.url}\nTIMECLOCK_API_TOKEN=${TOKEN}\n`,
      { mode: 0o400 },
    );
    const browserEnv = path.join(t.dir, 'browser-env.json');
    const browser = path.join(t.dir, 'fake-browser');
    fs.writeFileSync(
      browser,
      `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(browserEnv)}, JSON.stringify(process.env));\nsetInterval(() => {}, 1000);\n`,
      { mode: 0o755 },
    );

    const child = spawnCli(['start', '--headless', '--browser', browser], {
      TIMECLOCK_ENV_FILE: credential,
      TIMECLOCK_DATA_DIR: path.join(t.dir, 'data'),
      TIMECLOCK_LOG_LEVEL: 'error',
    });
    const exited = new Promise((r) => child.once('exit', r));
    cleanups.push(async () => {
      child.kill('SIGTERM');
      await exited;
    });
    child.stdout.resume();
    child.stderr.resume();
    await waitFor(() => fs.existsSync(browserEnv) && fs.statSync(browserEnv).size > 0, 'the browser started');
    // The roster came with the file's token: the mock accepts no other.
    await waitFor(
      () => mock.requests().some((r) => r.path.endsWith('/employees') && r.status === 200),
      'the roster fetched with the token',
      30_000,
    );

    const agentEnv = fs.readFileSync(`/proc/${child.pid}/environ`, 'utf8');
    expect(agentEnv).toContain(`TIMECLOCK_ENV_FILE=${credential}`);
    expect(agentEnv).not.toContain(TOKEN);
    const seen = fs.readFileSync(browserEnv, 'utf8');
    expect(seen).toContain('TIMECLOCK_DATA_DIR');
    expect(seen).not.toContain(TOKEN);
  });
});
