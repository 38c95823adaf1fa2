/**
 * TIMECLOCK_ENV_FILE (issue 25, item 6): the screen's unit hands /etc/timeclock-kiosk/env to the app
 * as a file (a systemd credential) instead of putting the token in the environment. The file is
 * read as EnvironmentFile= would be; what the environment itself sets wins.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { parseEnvFile } from '../../src/config-env-file.js';
import { tempDir } from '../helpers/temp.js';

const TOKEN = 'tok-envfile-9c1d44e0b7';
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});

function envFile(text: string): { file: string; dataDir: string } {
  const t = tempDir('timeclock-envfile-');
  cleanups.push(t.cleanup);
  const file = path.join(t.dir, 'timeclock-env');
  fs.writeFileSync(file, text, { mode: 0o600 });
  return { file, dataDir: path.join(t.dir, 'data') };
}

describe('the env file', () => {
  it('reads KEY=value lines as the postinst writes them, with comments, export and quotes', () => {
    const text = [
      '# The API token, read by systemd before it starts the terminal (root only, mode 0600).',
      '#TIMECLOCK_API_TOKEN=',
      '',
      `TIMECLOCK_API_TOKEN=${TOKEN}`,
      'export TIMECLOCK_SITE_ID="site-7"',
      "TIMECLOCK_LANGUAGE='es'",
      '; another comment',
      '  TIMECLOCK_LOG_LEVEL = warn  ',
    ].join('\n');
    expect(parseEnvFile(text, 'f')).toEqual({
      TIMECLOCK_API_TOKEN: TOKEN,
      TIMECLOCK_SITE_ID: 'site-7',
      TIMECLOCK_LANGUAGE: 'es',
      TIMECLOCK_LOG_LEVEL: 'warn',
    });
  });

  it('gives the configuration its API and token, the environment it came in unchanged', () => {
    const { file, dataDir } = envFile(
      `TIMECLOCK_API_URL=https://api.example.test/v2.1\nTIMECLOCK_API_TOKEN=${TOKEN}\nTIMECLOCK_LANGUAGE=en\n`,
    );
    const env = { TIMECLOCK_ENV_FILE: file, TIMECLOCK_DATA_DIR: dataDir, TIMECLOCK_LANGUAGE: 'es' };
    const loaded = loadConfig({ env });
    expect(loaded.demo).toBe(false);
    expect(loaded.config.api?.token).toBe(TOKEN);
    expect(loaded.config.api?.baseUrl).toBe('https://api.example.test/v2.1');
    // The environment's own value wins over the file's, as a variable given on the command line would.
    expect(loaded.config.screen.language).toBe('es');
    expect(env).toEqual({ TIMECLOCK_ENV_FILE: file, TIMECLOCK_DATA_DIR: dataDir, TIMECLOCK_LANGUAGE: 'es' });
  });

  it('a line that is not KEY=value is named by its number, never quoted (it may hold the token)', () => {
    const { file, dataDir } = envFile(`TIMECLOCK_API_URL=https://api.example.test/v2.1\n${TOKEN}\n`);
    let error: unknown;
    try {
      loadConfig({ env: { TIMECLOCK_ENV_FILE: file, TIMECLOCK_DATA_DIR: dataDir } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `invalid configuration:\n  TIMECLOCK_ENV_FILE ${file}, line 2: not a KEY=value line`,
    );
  });

  it('a file that cannot be read is a configuration error naming it', () => {
    const { file, dataDir } = envFile('');
    fs.rmSync(file);
    expect(() => loadConfig({ env: { TIMECLOCK_ENV_FILE: file, TIMECLOCK_DATA_DIR: dataDir } })).toThrow(
      `TIMECLOCK_ENV_FILE ${file}: cannot be read (ENOENT)`,
    );
  });
});
