/**
 * Issue 25 item 10: a configuration is either real or absent. `timeclock start` (the built CLI,
 * spawned) with a config file that, with the environment, names no API refuses in one line with
 * exit 2 and touches nothing; with --demo it runs the demo, whose data stays out of the configured
 * data directory; the API from the environment with the rest in the file is a normal set-up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const tmp = tempDir('timeclock-start-config-');
let mock: MockServer;
let n = 0;

/** A fresh place: a config file holding `config`, a configured data directory, a private XDG_DATA_HOME. */
function place(config: Record<string, unknown>): {
  file: string;
  dataDir: string;
  xdg: string;
  env: Record<string, string>;
} {
  const dir = path.join(tmp.dir, `case-${++n}`);
  fs.mkdirSync(dir);
  const file = path.join(dir, 'config.json');
  fs.writeFileSync(file, JSON.stringify(config));
  const dataDir = path.join(dir, 'data');
  const xdg = path.join(dir, 'xdg');
  return { file, dataDir, xdg, env: { HOME: dir, XDG_DATA_HOME: xdg, TIMECLOCK_LOG_LEVEL: 'warn' } };
}

/** Starts the terminal, waits for it to run, stops it; its standard error. */
async function runUntilRunning(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawnCli(args, env);
  let stderr = '';
  let code: number | null = null;
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.on('exit', (c) => (code = c ?? -1));
  try {
    await waitFor(
      () => {
        if (code !== null) throw new Error(`exited (${code}) before running:\n${stderr}`);
        return /running until stopped|type or scan/i.test(stderr);
      },
      'the terminal running',
      30_000,
    );
  } finally {
    child.kill('SIGTERM');
    await waitFor(() => code !== null, 'the terminal stops', 20_000);
  }
  return stderr;
}

beforeAll(async () => {
  mock = await startMockServer({ seed: demoSeed(), tokens: ['real-token'] });
});
afterAll(async () => {
  await mock?.close();
  tmp.cleanup();
});

describe('timeclock start with a configuration that names no API', () => {
  it('refuses `{}` in one line with exit 2, naming the file and --demo, and writes nothing', async () => {
    const p = place({});
    const r = await runCli(['start', '--headless', '--config', p.file], { ...p.env, TIMECLOCK_DATA_DIR: p.dataDir });
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`config file ${p.file} names no API`);
    expect(lines[0]).toContain('timeclock start --demo');
    expect(fs.existsSync(p.dataDir)).toBe(false);
    expect(fs.existsSync(p.xdg)).toBe(false);
  });

  it('refuses a file with other settings (its own dataDir, a time zone) found through TIMECLOCK_CONFIG too', async () => {
    const dir = path.join(tmp.dir, 'found');
    const p = place({ timezone: 'America/Sao_Paulo', dataDir: dir });
    const r = await runCli(['start', '--headless'], { ...p.env, TIMECLOCK_CONFIG: p.file });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('names no API');
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('with --demo runs the demo, and the configured data directory stays untouched', async () => {
    const p = place({ dataDir: path.join(tmp.dir, 'configured-data') });
    const configured = path.join(tmp.dir, 'configured-data');
    fs.mkdirSync(configured);
    fs.writeFileSync(path.join(configured, 'keep.txt'), 'the real terminal lives here');
    const stderr = await runUntilRunning(['start', '--headless', '--demo', '--config', p.file], p.env);
    expect(stderr).toMatch(/demo mode: embedded mock API/);
    expect(fs.readdirSync(configured)).toEqual(['keep.txt']);
    expect(fs.readFileSync(path.join(configured, 'keep.txt'), 'utf8')).toBe('the real terminal lives here');
    // The demo's own directory got the demo's data.
    const demoDir = path.join(p.xdg, 'timeclock-kiosk', 'demo');
    expect(fs.readdirSync(demoDir)).toContain('timeclock.sqlite');
  });

  it('with --demo and TIMECLOCK_DATA_DIR: that directory is not the demo’s either', async () => {
    const p = place({});
    const stderr = await runUntilRunning(['start', '--headless', '--demo', '--config', p.file], {
      ...p.env,
      TIMECLOCK_DATA_DIR: p.dataDir,
    });
    expect(stderr).toMatch(/demo mode/);
    expect(fs.existsSync(p.dataDir)).toBe(false);
    expect(fs.readdirSync(path.join(p.xdg, 'timeclock-kiosk', 'demo'))).toContain('timeclock.sqlite');
  });

  it('the API from the environment with the rest in the file is a normal set-up (no demo, the configured data directory)', async () => {
    const p = place({ timezone: 'America/Sao_Paulo', dataDir: path.join(tmp.dir, 'real-data') });
    const stderr = await runUntilRunning(['start', '--headless', '--config', p.file], {
      ...p.env,
      TIMECLOCK_API_URL: mock.url,
      TIMECLOCK_API_TOKEN: 'real-token',
    });
    expect(stderr).not.toMatch(/demo/i);
    expect(fs.readdirSync(path.join(tmp.dir, 'real-data'))).toContain('timeclock.sqlite');
    expect(mock.requests().some((r) => r.path.includes('/employees'))).toBe(true);
    // --demo beside a real API is a mistake, said as such.
    const both = await runCli(['start', '--headless', '--demo', '--config', p.file], {
      ...p.env,
      TIMECLOCK_API_URL: mock.url,
      TIMECLOCK_API_TOKEN: 'real-token',
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--demo runs the demo, but the configuration names an API');
  });

  it('with no configuration at all the demo starts as before', async () => {
    const p = place({});
    const stderr = await runUntilRunning(['start', '--headless'], { ...p.env, TIMECLOCK_DATA_DIR: p.dataDir });
    expect(stderr).toMatch(/demo mode/);
    expect(fs.readdirSync(p.dataDir)).toContain('timeclock.sqlite');
  });
});
