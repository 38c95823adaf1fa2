/**
 * A fake root for the Debian maintainer scripts (test/integration/deb-scripts.test.ts): what the
 * package unpacks (the app under /opt), empty account files, and stand-ins for the live programs
 * (systemctl, udevadm, runuser...) first on PATH that log any call.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect } from 'vitest';
import { tempDir } from './temp.js';

const requireModule = createRequire(import.meta.url);

export const POSTINST = path.resolve('assets/deb/postinst');
export const PRERM = path.resolve('assets/deb/prerm');
export const POSTRM = path.resolve('assets/deb/postrm');
export const APP = '/opt/timeclock-kiosk';
export const RES = `${APP}/resources`;
export const DATA = '/var/lib/timeclock-kiosk';
export const CONF = '/etc/timeclock-kiosk';
export const LEGACY = '/home/kiosk/.local/share/timeclock-kiosk';
/** Programs that act on the live system: never to be run with DPKG_ROOT set. */
export const LIVE_PROGRAMS = [
  'systemctl',
  'udevadm',
  'runuser',
  'update-desktop-database',
  'unshare',
  'sudo',
  'deb-systemd-invoke',
  'getent',
  'useradd',
  'groupadd',
  'adduser',
];

/** Fake roots made so far, removed by the test file's afterEach. */
export const cleanups: Array<() => void> = [];

export type Run = { status: number | null; stdout: string; stderr: string };
export type Rig = {
  /** The fake root (DPKG_ROOT). */
  root: string;
  /** `<root><p>`, for an absolute path `p` as the package sees it. */
  at(p: string): string;
  run(script: string, ...args: string[]): Run;
  /** The live programs called so far ("name args" lines). */
  liveCalls(): string[];
};

export function requireRoot(): void {
  if (process.getuid?.() !== 0) {
    throw new Error(
      'test/integration/deb-scripts.test.ts must run as root (CI does): postinst creates the kiosk user in the fake root ' +
        'with the real groupadd/useradd --prefix and chowns the data directory; run it in the CI container or under sudo',
    );
  }
}

/**
 * A fake root holding what dpkg unpacks (the package's own files from scripts/dist/deb-layout.mjs, the app under /opt)
 * and empty account files.
 */
export function fakeRoot(): Rig {
  requireRoot();
  const t = tempDir('timeclock deb-root-');
  cleanups.push(t.cleanup);
  const root = path.join(t.dir, 'root');
  const at = (p: string) => path.join(root, p);
  fs.mkdirSync(at('/etc'), { recursive: true });
  for (const f of ['passwd', 'group', 'shadow', 'gshadow']) fs.writeFileSync(at(`/etc/${f}`), '');
  fs.mkdirSync(at(`${RES}/bin`), { recursive: true });
  for (const f of ['timeclock', 'timeclock-kiosk-session'])
    fs.copyFileSync(path.resolve('assets/bin', f), at(`${RES}/bin/${f}`));
  fs.writeFileSync(at(`${APP}/timeclock-kiosk`), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  fs.cpSync(path.join(stageLayout(t.dir), 'root'), root, { recursive: true, verbatimSymlinks: true });

  const standIns = path.join(t.dir, 'stand-ins');
  const log = path.join(t.dir, 'live-calls.log');
  fs.mkdirSync(standIns);
  fs.writeFileSync(log, '');
  for (const name of LIVE_PROGRAMS) {
    fs.writeFileSync(path.join(standIns, name), `#!/bin/sh\necho "${name} $*" >> '${log}'\nexit 0\n`, { mode: 0o755 });
  }
  const env = {
    PATH: `${standIns}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`,
    DPKG_ROOT: root,
    // What dpkg sets for its maintainer scripts (deb-systemd-helper refuses to run without it).
    DPKG_MAINTSCRIPT_PACKAGE: 'timeclock-kiosk',
    HOME: '/root',
    LC_ALL: 'C',
  };
  return {
    root,
    at,
    run: (script, ...args) => {
      const r = spawnSync('sh', [script, ...args], { env, encoding: 'utf8', timeout: 30_000 });
      if (r.error) throw r.error;
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    },
    liveCalls: () => fs.readFileSync(log, 'utf8').split('\n').filter(Boolean),
  };
}

type DebLayout = { stageDebLayout(root: string, dir: string): string[] };
/** The package's own files as scripts/dist/deb-layout.mjs stages them for fpm, under `<dir>/deb/root`. */
function stageLayout(dir: string): string {
  const layout = requireModule(path.resolve('scripts/dist/deb-layout.mjs')) as DebLayout;
  layout.stageDebLayout(path.resolve('.'), path.join(dir, 'deb'));
  return path.join(dir, 'deb');
}

/** postinst as dpkg runs it, which must succeed. */
export function install(rig: Rig, ...args: string[]): Run {
  const r = rig.run(POSTINST, 'configure', ...args);
  expect(r.status, `postinst configure ${args.join(' ')} failed:\n${r.stdout}${r.stderr}`).toBe(0);
  return r;
}

/** The fake root's entry for `name` in passwd/group, split on colons. */
export function entry(rig: Rig, file: 'passwd' | 'group', name: string): string[] | undefined {
  return fs
    .readFileSync(rig.at(`/etc/${file}`), 'utf8')
    .split('\n')
    .map((l) => l.split(':'))
    .find((f) => f[0] === name);
}

/**
 * Every entry under `dir`: type, mode, owner, and content hash or link target (no times: install rewrites the units).
 */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    const rel = path.relative(dir, p) || '.';
    const head = `${(st.mode & 0o7777).toString(8)} ${st.uid}:${st.gid}`;
    if (st.isSymbolicLink()) out[rel] = `link ${fs.readlinkSync(p)}`;
    else if (st.isDirectory()) {
      out[rel] = `dir ${head}`;
      for (const n of fs.readdirSync(p)) walk(path.join(p, n));
    } else out[rel] = `file ${head} ${crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex')}`;
  };
  walk(dir);
  return out;
}

export const mode = (p: string) => fs.statSync(p).mode & 0o7777;
export const exists = (p: string) => {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
};
export const OLD_TIME = new Date('2020-02-03T04:05:06Z');
