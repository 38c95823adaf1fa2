/**
 * The default data directory (issue 13 item 5): the system directory when this process can write
 * to it, else the per-user one; a configured one always wins (and then nothing is adopted).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, SYSTEM_DATA_DIR } from '../../src/config.js';
import { tempDir } from '../helpers/temp.js';

const API = { TIMECLOCK_API_URL: 'https://api.example.com/v2.1', TIMECLOCK_API_TOKEN: 'tok-zq7Hk2PvX9mWn4Rt' };

let dir: string;
let cleanup: () => void;
let env: NodeJS.ProcessEnv;
let userDir: string;

beforeEach(() => {
  ({ dir, cleanup } = tempDir('timeclock-datadir-'));
  env = { XDG_DATA_HOME: path.join(dir, 'xdg'), ...API };
  userDir = path.join(dir, 'xdg', 'timeclock-kiosk');
});
afterEach(() => cleanup());

/** A system data directory as the package makes it (0700). */
function systemDir(): string {
  const sys = path.join(dir, 'var-lib-timeclock-kiosk');
  fs.mkdirSync(sys, { mode: 0o700 });
  return sys;
}

describe('the default data directory', () => {
  it('is the system directory when it exists and can be written; the per-user one is where a queue may be left', () => {
    const sys = systemDir();
    const loaded = loadConfig({ env, systemDataDir: sys });
    expect(loaded.config.dataDir).toBe(sys);
    expect(loaded.dataDirSource).toBe('system');
    expect(loaded.legacyDataDir).toBe(userDir);
  });

  it('a demo keeps its own subdirectory of the system directory, and adopts only a demo queue', () => {
    const sys = systemDir();
    const loaded = loadConfig({ env: { XDG_DATA_HOME: env.XDG_DATA_HOME }, systemDataDir: sys });
    expect(loaded.demo).toBe(true);
    expect(loaded.config.dataDir).toBe(path.join(sys, 'demo'));
    expect(loaded.legacyDataDir).toBe(path.join(userDir, 'demo'));
  });

  it('is the per-user directory when the system one is absent (nothing to adopt)', () => {
    const loaded = loadConfig({ env, systemDataDir: path.join(dir, 'absent') });
    expect(loaded.config.dataDir).toBe(userDir);
    expect(loaded.dataDirSource).toBe('user');
    expect(loaded.legacyDataDir).toBeNull();
    const demo = loadConfig({ env: { XDG_DATA_HOME: env.XDG_DATA_HOME }, systemDataDir: path.join(dir, 'absent') });
    expect(demo.config.dataDir).toBe(path.join(userDir, 'demo'));
  });

  it('is the per-user directory when the system path cannot be used, even by root: a regular file, or under one', () => {
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, 'not a directory');
    for (const sys of [file, path.join(file, 'timeclock-kiosk')]) {
      const loaded = loadConfig({ env, systemDataDir: sys });
      expect(loaded.config.dataDir, sys).toBe(userDir);
      expect(loaded.dataDirSource).toBe('user');
      expect(loaded.legacyDataDir).toBeNull();
    }
  });

  // Root may write anywhere whatever the mode bits, so this case can only be shown by another user.
  it.skipIf(process.getuid?.() === 0)(
    'is the per-user directory when the system one is not writable by this user',
    () => {
      const sys = systemDir();
      fs.chmodSync(sys, 0o500);
      try {
        expect(loadConfig({ env, systemDataDir: sys }).config.dataDir).toBe(userDir);
      } finally {
        fs.chmodSync(sys, 0o700);
      }
    },
  );

  it('a configured directory wins over the system one, from the environment or the file, and turns adoption off', () => {
    const sys = systemDir();
    const mine = path.join(dir, 'mine');
    const fromEnv = loadConfig({ env: { ...env, TIMECLOCK_DATA_DIR: mine }, systemDataDir: sys });
    expect(fromEnv.config.dataDir).toBe(mine);
    expect(fromEnv.dataDirSource).toBe('configured');
    expect(fromEnv.legacyDataDir).toBeNull();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ dataDir: mine }));
    const fromFile = loadConfig({ file, env, systemDataDir: sys });
    expect(fromFile.config.dataDir).toBe(mine);
    expect(fromFile.legacyDataDir).toBeNull();
    // Configured as the system directory itself: still configured, so still no adoption.
    const same = loadConfig({ env: { ...env, TIMECLOCK_DATA_DIR: sys }, systemDataDir: sys });
    expect(same.dataDirSource).toBe('configured');
    expect(same.legacyDataDir).toBeNull();
  });

  it('the system directory is the one the Debian package creates', () => {
    expect(SYSTEM_DATA_DIR).toBe('/var/lib/timeclock-kiosk');
  });
});
