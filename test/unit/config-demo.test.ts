/**
 * The start decision of config-demo.ts on real loadConfig results (files in a temp directory):
 * where `--demo` puts its data when the configured data directory would hold the demo's default,
 * and the cases the CLI test does not spawn (see test/integration/start-config.test.ts for those).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { StartRefused, startConfig } from '../../src/config-demo.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('timeclock-config-demo-');
afterAll(() => tmp.cleanup());

function configFile(name: string, body: Record<string, unknown>): string {
  const file = path.join(tmp.dir, name);
  fs.writeFileSync(file, JSON.stringify(body));
  return file;
}

describe('startConfig', () => {
  it('with --demo, a configured data directory that holds the system one: the demo goes to the per-user directory', () => {
    const system = path.join(tmp.dir, 'var-lib');
    fs.mkdirSync(system);
    const xdg = path.join(tmp.dir, 'xdg');
    const env = { TIMECLOCK_DATA_DIR: system, XDG_DATA_HOME: xdg, HOME: tmp.dir };
    const file = configFile('empty.json', {});
    const loaded = loadConfig({ file, env, systemDataDir: system });
    expect(loaded.demo).toBe(true);
    // The default demo directory would be <system>/demo: inside the configured one.
    const chosen = startConfig(loaded, { file, demo: true, env, systemDataDir: system });
    expect(chosen.config.dataDir).toBe(path.join(xdg, 'timeclock-kiosk', 'demo'));
    expect(chosen.dataDirSource).toBe('user');
    expect(chosen.legacyDataDir).toBeNull();
  });

  it('with --demo, when every place the demo could use is inside the configured data directory: refused, naming it', () => {
    const env = { XDG_DATA_HOME: path.join(tmp.dir, 'all', 'xdg'), HOME: tmp.dir };
    const file = configFile('all.json', { dataDir: path.join(tmp.dir, 'all') });
    const loaded = loadConfig({ file, env, systemDataDir: path.join(tmp.dir, 'no-system') });
    expect(() =>
      startConfig(loaded, { file, demo: true, env, systemDataDir: path.join(tmp.dir, 'no-system') }),
    ).toThrow(StartRefused);
  });

  it('without a file: the demo as always, in the directory the environment names; --demo changes only where its data goes', () => {
    const env = {
      TIMECLOCK_DATA_DIR: path.join(tmp.dir, 'dev'),
      XDG_DATA_HOME: path.join(tmp.dir, 'xdg2'),
      HOME: tmp.dir,
    };
    const loaded = loadConfig({ env, systemDataDir: path.join(tmp.dir, 'no-system') });
    expect(startConfig(loaded, { file: undefined, demo: false, env }).config.dataDir).toBe(path.join(tmp.dir, 'dev'));
    expect(startConfig(loaded, { file: undefined, demo: true, env }).config.dataDir).toBe(
      path.join(tmp.dir, 'xdg2', 'timeclock-kiosk', 'demo'),
    );
  });

  it('a file found through TIMECLOCK_CONFIG counts as given; an API configured makes it a real set-up', () => {
    const file = configFile('found.json', { timezone: 'America/Sao_Paulo' });
    const env = { TIMECLOCK_CONFIG: file, HOME: tmp.dir, XDG_DATA_HOME: path.join(tmp.dir, 'xdg3') };
    expect(() => startConfig(loadConfig({ env }), { file: undefined, demo: false, env })).toThrow(/names no API/);
    const withApi = { ...env, TIMECLOCK_API_URL: 'https://api.example.com.br/v2.1', TIMECLOCK_API_TOKEN: 't' };
    const real = loadConfig({ env: withApi });
    expect(startConfig(real, { file: undefined, demo: false, env: withApi })).toBe(real);
  });
});
