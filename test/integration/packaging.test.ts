/**
 * The packaged terminal (issue 13), built here as far as this machine allows: `npm run dist:dir`'s
 * whole pipeline (staging, electron-builder's `dir` target, the after-pack load check, the fuses)
 * against a stand-in Electron distribution whose Node mode is this test's own Node. Both native
 * modules are Node-API prebuilds (better-sqlite3 13, node-hid 3): shipped byte for byte as npm
 * installed them, and loaded by the packaged runtime after packing.
 *
 * What cannot run here, and is not pretended: the real Electron runtime (its binary and headers
 * come from github.com / artifacts.electronjs.org), fpm itself (a Ruby program electron-builder
 * downloads; Debian has none: a stand-in builds the deb from electron-builder's fpm arguments with
 * dpkg-deb, and lintian reads it) and the AppImage (appimagetool, also downloaded).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeb, type FpmRecord } from '../helpers/deb-build.js';
import { makeStandInElectron } from '../helpers/stand-in-electron.js';
import { tempDir } from '../helpers/temp.js';

const require = createRequire(import.meta.url);
const ROOT = path.resolve('.');
const ELECTRON_VERSION = (
  JSON.parse(fs.readFileSync('node_modules/electron/package.json', 'utf8')) as { version: string }
).version;
const NODE_PREFIX = path.dirname(path.dirname(process.execPath));
const SQLITE_PREBUILD = `prebuilds/linux-${process.arch}.node`;
const PROJECT_SQLITE = path.join(ROOT, 'node_modules/better-sqlite3', SQLITE_PREBUILD);
const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

type Asar = {
  listPackage(archive: string, opts?: object): string[];
  extractFile(archive: string, file: string): Buffer;
};
const asar = require('@electron/asar') as Asar;

let work: { dir: string; cleanup(): void };
let unpacked: string;
let buildOutput: string;
let projectSqliteBefore: string;

/** Node's headers with another NODE_MODULE_VERSION: what a runtime other than the packaged one would be built from. */
function headersOfAnotherAbi(dir: string): string {
  if (!fs.existsSync(path.join(NODE_PREFIX, 'include/node/node_version.h'))) {
    throw new Error(
      `this Node (${process.execPath}) has no headers at ${NODE_PREFIX}/include/node: the test compiles an addon against them`,
    );
  }
  fs.cpSync(path.join(NODE_PREFIX, 'include/node'), path.join(dir, 'include/node'), { recursive: true });
  const versionH = path.join(dir, 'include/node/node_version.h');
  fs.writeFileSync(
    versionH,
    fs.readFileSync(versionH, 'utf8').replace(/#define NODE_MODULE_VERSION \d+/, '#define NODE_MODULE_VERSION 999'),
  );
  return dir;
}

/** A child process run to its end without blocking the test worker (vitest talks to it meanwhile). */
function run(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, out });
    });
  });
}

beforeAll(async () => {
  work = tempDir();
  const standIn = makeStandInElectron(path.join(work.dir, 'electron-dist'), {
    node: process.execPath,
    version: ELECTRON_VERSION,
  });
  projectSqliteBefore = sha256(PROJECT_SQLITE);
  const built = await run(process.execPath, ['scripts/dist.mjs', '--dir', '--skip-build', '--work', work.dir], {
    cwd: ROOT,
    env: { ...process.env, ELECTRON_DIST: standIn },
    timeoutMs: 15 * 60_000,
  });
  buildOutput = built.out;
  if (built.status !== 0) throw new Error(`npm run dist:dir failed (${built.status}):\n${buildOutput.slice(-3000)}`);
  unpacked = path.join(work.dir, 'release/linux-unpacked');
}, 16 * 60_000);

afterAll(() => work?.cleanup());

describe('npm run dist:dir against a stand-in Electron', () => {
  it('packs the app into app.asar with only the runtime files: no electron package, downloader, sources or maps', () => {
    expect(fs.existsSync(path.join(unpacked, 'timeclock-kiosk'))).toBe(true);
    const files = asar.listPackage(path.join(unpacked, 'resources/app.asar'), { isPack: false });
    expect(files).toContain('/dist/src/main/main.js');
    expect(files).toContain('/dist/src/cli.js');
    expect(files).toContain('/dist/renderer/index.html');
    expect(files).toContain('/node_modules/better-sqlite3/lib/index.js');
    const manifest = JSON.parse(
      asar.extractFile(path.join(unpacked, 'resources/app.asar'), 'package.json').toString(),
    ) as { main: string; version: string };
    expect(manifest.main).toBe('dist/src/main/main.js');
    // Package names (a scope's own directory, "@ioredis", is not one).
    const packages = new Set(
      files
        .map((f) => /^\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1])
        .filter((n) => n !== undefined && !/^@[^/]+$/.test(n)),
    );
    // qrcode (and its command line's pngjs, yargs...): the screen's bundle carries the encoder it uses.
    for (const unwanted of [
      'electron',
      '@electron/get',
      'electron-builder',
      'prebuild-install',
      'node-addon-api',
      'typescript',
      'vitest',
      'qrcode',
      'pngjs',
      'yargs',
      'dijkstrajs',
    ]) {
      expect(packages.has(unwanted), unwanted).toBe(false);
    }
    // Exactly the production dependency tree npm resolved, less what only installs use.
    const production = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .map((l) => /node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(l.trim())?.[1])
      .filter((n): n is string => n !== undefined);
    const installOnly = ['prebuild-install', 'node-addon-api'];
    for (const name of ['better-sqlite3', 'node-hid', 'undici', 'zod', 'pkg-prebuilds'])
      expect(packages.has(name), name).toBe(true);
    expect(
      [...packages].every((p) => production.includes(p as string)),
      [...packages].join(' '),
    ).toBe(true);
    expect([...packages].some((p) => installOnly.includes(p as string))).toBe(false);
    const sources = files.filter(
      (f) =>
        /\.(c|cc|cpp|h|gyp|gypi|map|ts|md)$/.test(f) ||
        /\/(deps|hidapi|test)\//.test(f) ||
        /better-sqlite3\/src\//.test(f),
    );
    expect(sources).toEqual([]);
    expect(files.some((f) => f.startsWith('/dist/test/'))).toBe(false);
  });

  it('unpacks only the two .node files, for this architecture, next to the archive', () => {
    const list = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) =>
          e.isDirectory()
            ? list(path.join(dir, e.name))
            : [path.relative(path.join(unpacked, 'resources/app.asar.unpacked'), path.join(dir, e.name))],
        );
    const nodeFiles = list(path.join(unpacked, 'resources/app.asar.unpacked'))
      .filter((f) => f.endsWith('.node'))
      .sort();
    expect(nodeFiles).toEqual([
      `node_modules/better-sqlite3/${SQLITE_PREBUILD}`,
      `node_modules/node-hid/prebuilds/HID_hidraw-linux-${process.arch}/node-napi-v4.node`,
    ]);
    expect(fs.existsSync(path.join(unpacked, 'resources/default_app.asar'))).toBe(false);
  });

  it('ships the Node-API prebuilds as npm installed them, and leaves the project node_modules alone (npm test and the package share them)', () => {
    const unpackedDir = path.join(unpacked, 'resources/app.asar.unpacked/node_modules');
    expect(sha256(path.join(unpackedDir, 'better-sqlite3', SQLITE_PREBUILD))).toBe(projectSqliteBefore);
    const hid = `node-hid/prebuilds/HID_hidraw-linux-${process.arch}/node-napi-v4.node`;
    expect(sha256(path.join(unpackedDir, hid))).toBe(sha256(path.join(ROOT, 'node_modules', hid)));
    expect(sha256(PROJECT_SQLITE)).toBe(projectSqliteBefore);
    expect(buildOutput).not.toMatch(/compiling|node-gyp/);
  });

  it('loaded both native modules in the packaged runtime after packing, and says so', () => {
    expect(buildOutput).toMatch(
      /native modules load in the packaged runtime \(node [\d.]+, ABI \d+\): SQLite 3\.\d+\.\d+, \d+ HID device\(s\) visible/,
    );
  });

  it('sets the fuses: no Node mode, no NODE_OPTIONS or --inspect, app code only from app.asar, no extra file:// rights', async () => {
    const { readFuses } = (await import(path.join(ROOT, 'scripts/dist/after-pack.mjs'))) as {
      readFuses(exe: string): Promise<Record<string, string>>;
    };
    expect(await readFuses(path.join(unpacked, 'timeclock-kiosk'))).toMatchObject({
      RunAsNode: 'off',
      EnableNodeOptionsEnvironmentVariable: 'off',
      EnableNodeCliInspectArguments: 'off',
      EnableEmbeddedAsarIntegrityValidation: 'on',
      OnlyLoadAppFromAsar: 'on',
      EnableCookieEncryption: 'on',
      GrantFileProtocolExtraPrivileges: 'off',
    });
  });

  it('ships the command-line wrapper, the session program, the units, the udev rule and the example config as resources', () => {
    for (const f of [
      'bin/timeclock',
      'bin/timeclock-kiosk-session',
      'system/timeclock-kiosk.service',
      'system/timeclock-kiosk-cage.service',
      'system/60-timeclock-readers.rules',
      'system/config.example.json',
      'system/timeclock-kiosk.desktop',
      'system/chromium-policy.json',
    ]) {
      expect(fs.existsSync(path.join(unpacked, 'resources', f)), f).toBe(true);
    }
    expect(fs.statSync(path.join(unpacked, 'resources/bin/timeclock')).mode & 0o111).not.toBe(0);
  });
});

describe('the sizes the build reports', () => {
  it('are written by the build, and the README quotes them (within 5 %)', () => {
    const sizes = JSON.parse(fs.readFileSync(path.join(work.dir, 'release/sizes.json'), 'utf8')) as {
      appBytes: number;
      asarBytes: number;
      nativeBytes: number;
    };
    expect(sizes.asarBytes).toBe(fs.statSync(path.join(unpacked, 'resources/app.asar')).size);
    const mib = (b: number) => `${(b / 1_048_576).toFixed(1)} MiB (${(b / 1_000_000).toFixed(2)} MB)`;
    expect(buildOutput).toContain(
      `dist: unpacked app ${mib(sizes.appBytes)}, app.asar ${mib(sizes.asarBytes)}, unpacked native files ${mib(sizes.nativeBytes)}`,
    );
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const quoted = (re: RegExp) => Number(re.exec(readme)?.[1] ?? NaN) * 1_048_576;
    const near = (said: number, measured: number) => Math.abs(said - measured) / measured;
    expect(near(quoted(/`app\.asar` ([\d.]+) MiB/), sizes.asarBytes), 'README: app.asar').toBeLessThan(0.05);
    expect(
      near(quoted(/unpacked native files ([\d.]+) MiB/), sizes.nativeBytes),
      'README: unpacked native files',
    ).toBeLessThan(0.05);
    expect(
      near(quoted(/the app's part of the package ([\d.]+) MiB/), sizes.appBytes),
      "README: the app's part",
    ).toBeLessThan(0.05);
  });
});

describe('the after-pack check', () => {
  it('fails the build on a native module compiled for another ABI, quoting the runtime', async () => {
    const { checkNativeModules } = (await import(path.join(ROOT, 'scripts/dist/check-native.mjs'))) as {
      checkNativeModules(o: { executable: string; resourcesDir: string }): unknown;
    };
    // A copy of the packaged app whose SQLite module is a real (non-Node-API) addon built against
    // headers that declare another NODE_MODULE_VERSION: what a module built for another runtime is.
    const copy = path.join(work.dir, 'abi-mismatch');
    fs.cpSync(unpacked, copy, { recursive: true });
    const headers = headersOfAnotherAbi(path.join(work.dir, 'other-headers'));
    const src = path.join(work.dir, 'addon.cc');
    fs.writeFileSync(
      src,
      '#include <node.h>\nstatic void Init(v8::Local<v8::Object>) {}\nNODE_MODULE(better_sqlite3, Init)\n',
    );
    const target = path.join(copy, 'resources/app.asar.unpacked/node_modules/better-sqlite3', SQLITE_PREBUILD);
    execFileSync(
      'g++',
      ['-shared', '-fPIC', '-std=c++20', '-I', path.join(headers, 'include/node'), src, '-o', target],
      { stdio: 'pipe' },
    );
    expect(() =>
      checkNativeModules({
        executable: path.join(copy, 'timeclock-kiosk'),
        resourcesDir: path.join(copy, 'resources'),
      }),
    ).toThrow(/the native modules do not load in the packaged runtime: .*NODE_MODULE_VERSION 999/);
  }, 120_000);
});

describe("the deb, assembled from electron-builder's fpm arguments", () => {
  // electron-builder's deb step with an fpm stand-in that builds the package with dpkg-deb
  // (test/helpers/deb-build.ts), then dpkg-deb and lintian read it.
  let deb: string;
  let record: FpmRecord;
  const dpkg = (...a: string[]) => execFileSync('dpkg-deb', a, { encoding: 'utf8' });

  beforeAll(async () => {
    ({ deb, record } = await buildDeb({ root: ROOT, unpacked, work: work.dir, electronVersion: ELECTRON_VERSION }));
  }, 180_000);

  it('is asked for with the maintainer, homepage, dependencies, our scripts verbatim, the app under /opt and its menu entry', () => {
    const { args, scripts } = record;
    const value = (flag: string) => args[args.indexOf(flag) + 1];
    const values = (flag: string) => args.flatMap((a, i) => (a === flag ? [args[i + 1]] : []));
    expect(value('--name')).toBe('timeclock-kiosk');
    expect(value('--maintainer')).toBe('timeclock-kiosk developers <dev@timeclock-kiosk.example>');
    expect(value('--url')).toBe('https://timeclock-kiosk.example/');
    expect(value('--architecture')).toBe(process.arch === 'x64' ? 'amd64' : process.arch);
    expect(value('--description')).toMatch(/^Time-clock terminal for a time and attendance service\n .*badge/s);
    expect(value('--package')).toMatch(/timeclock-kiosk_\d+\.\d+\.\d+_amd64\.deb$/);
    // Electron's own libraries, what the native modules load (readelf -d on both .node files),
    // libc, and what the maintainer scripts and the USB drive unit run.
    expect(values('-d')).toEqual(
      expect.arrayContaining([
        'libc6',
        'libgtk-3-0',
        'libnss3',
        'libudev1',
        'libusb-1.0-0',
        'libstdc++6',
        'libgcc-s1',
        'systemd',
        'init-system-helpers (>= 1.62)',
      ]),
    );
    expect(values('--deb-recommends')).toEqual(['cage', 'polkitd']);
    // The scripts are ours, unchanged by electron-builder's macro expansion.
    expect(scripts.postinst).toBe(fs.readFileSync('assets/deb/postinst', 'utf8'));
    expect(scripts.prerm).toBe(fs.readFileSync('assets/deb/prerm', 'utf8'));
    expect(scripts.postrm).toBe(fs.readFileSync('assets/deb/postrm', 'utf8'));
    expect(args).toContain(`${unpacked}/=/opt/timeclock-kiosk`);
    expect(args.some((a) => /=\/usr\/share\/icons\/hicolor\/512x512\/apps\/timeclock-kiosk\.png$/.test(a))).toBe(true);
    expect(args.some((a) => /=\/usr\/share\/applications\/timeclock-kiosk\.desktop$/.test(a))).toBe(true);
  });

  it('owns the units, udev rules, X session, sysusers/tmpfiles entries, polkit rule, /usr/bin links, copyright and /etc files; the /etc files are conffiles', () => {
    const listing = dpkg('-c', deb);
    const entryOf = (p: string) => listing.split('\n').find((l) => l.includes(` .${p}`)) ?? '';
    for (const p of [
      '/usr/lib/systemd/system/timeclock-kiosk.service',
      '/usr/lib/systemd/system/timeclock-kiosk-cage.service',
      '/usr/lib/systemd/system/timeclock-kiosk-usb@.service',
      '/usr/lib/udev/rules.d/60-timeclock-readers.rules',
      '/usr/lib/udev/rules.d/61-timeclock-usb-drives.rules',
      '/usr/lib/sysusers.d/timeclock-kiosk.conf',
      '/usr/lib/tmpfiles.d/timeclock-kiosk.conf',
      '/usr/share/xsessions/timeclock-kiosk.desktop',
      '/usr/share/polkit-1/rules.d/60-timeclock-kiosk.rules',
      '/usr/share/doc/timeclock-kiosk/copyright',
      '/usr/share/doc/timeclock-kiosk/changelog.gz',
      '/usr/share/lintian/overrides/timeclock-kiosk',
      '/etc/timeclock-kiosk/config.example.json',
    ]) {
      expect(entryOf(p), p).toMatch(/^-rw-r--r-- root\/root /);
    }
    expect(entryOf('/etc/timeclock-kiosk/env')).toMatch(/^-rw------- root\/root /);
    expect(entryOf('/usr/bin/timeclock ')).toMatch(
      /^lrwxrwxrwx root\/root .* -> \/opt\/timeclock-kiosk\/resources\/bin\/timeclock$/,
    );
    expect(entryOf('/usr/bin/timeclock-kiosk-session')).toMatch(
      /-> \/opt\/timeclock-kiosk\/resources\/bin\/timeclock-kiosk-session$/,
    );
    expect(entryOf('/usr/bin/timeclock-kiosk ')).toMatch(/-> \/opt\/timeclock-kiosk\/timeclock-kiosk$/);
    expect(entryOf('/opt/timeclock-kiosk/resources/app.asar')).not.toBe('');
    expect(dpkg('--info', deb, 'conffiles').trim().split('\n').sort()).toEqual([
      '/etc/timeclock-kiosk/config.example.json',
      '/etc/timeclock-kiosk/env',
    ]);
    expect(dpkg('--info', deb, 'prerm')).toBe(fs.readFileSync('assets/deb/prerm', 'utf8'));
    expect(dpkg('--field', deb, 'Depends')).toMatch(/^libc6, /);
  });

  it('has no lintian error; what is overridden is only the app under /opt, said in the package', () => {
    const lintian = (...a: string[]) =>
      spawnSync('lintian', ['--tag-display-limit', '0', ...a, deb], { encoding: 'utf8', timeout: 240_000 });
    const plain = lintian();
    if (plain.error)
      throw new Error(`lintian could not run (${plain.error.message}); .ci/run installs it (apt-get install lintian)`);
    const tags = plain.stdout.split('\n').filter((l) => /^[EW]: /.test(l));
    expect(tags.filter((l) => l.startsWith('E: '))).toEqual([]);
    // Warnings left, and why: no manual pages (the commands' --help is their manual); fpm's own
    // control fields License and Vendor.
    expect(
      tags.map((l) => l.split(' ')[2]).filter((t) => !['no-manual-page', 'unknown-field'].includes(t as string)),
    ).toEqual([]);
    const overridden = lintian('--show-overrides')
      .stdout.split('\n')
      .filter((l) => l.startsWith('O: '));
    const counts: Record<string, number> = {};
    for (const l of overridden) counts[l.split(' ')[2] as string] = (counts[l.split(' ')[2] as string] ?? 0) + 1;
    expect(Object.keys(counts).sort()).toEqual([
      'dir-or-file-in-opt',
      'non-standard-file-perm',
      'unstripped-binary-or-object',
    ]);
    expect(
      overridden
        .filter((l) => / dir-or-file-in-opt | unstripped-binary-or-object /.test(l))
        .every((l) => /\[opt\/timeclock-kiosk\//.test(l)),
    ).toBe(true);
  }, 300_000);
});

describe('npm run dist without the Electron runtime', () => {
  it('stops with one line saying what is missing and how to provide it, and a non-zero code', async () => {
    const cache = path.join(work.dir, 'empty-cache');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      electron_config_cache: cache,
      ELECTRON_MIRROR: 'http://127.0.0.1:9/',
      XDG_CACHE_HOME: cache,
    };
    delete env.ELECTRON_DIST;
    delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
    if (fs.existsSync(path.join(ROOT, 'node_modules/electron/dist/version'))) {
      throw new Error('node_modules/electron/dist holds a runtime: this test is for a machine without one');
    }
    const result = await run(
      process.execPath,
      ['scripts/dist.mjs', '--skip-build', '--work', path.join(work.dir, 'no-runtime')],
      { cwd: ROOT, env, timeoutMs: 120_000 },
    );
    expect(result.status).toBe(1);
    const lines = result.out.trim().split('\n');
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^dist: the Electron ${ELECTRON_VERSION.replace(/\./g, '\\.')} runtime could not be downloaded \\(.+\\): run on a machine that reaches github\\.com, or set ELECTRON_DIST to an unpacked Electron`,
      ),
    );
    expect(fs.existsSync(path.join(work.dir, 'no-runtime', 'release'))).toBe(false);
  }, 150_000);
});

describe('the timeclock command of the package', () => {
  it('runs the packaged executable in its command-line mode with the system data directory and configuration', async () => {
    // The stand-in executable prints what it was given instead of starting Electron.
    const result = await run(path.join(unpacked, 'resources/bin/timeclock'), ['status', '--json'], {
      cwd: work.dir,
      env: { PATH: process.env.PATH ?? '', TIMECLOCK_AS_ROOT: '1' },
      timeoutMs: 30_000,
    });
    expect(result.out).toContain('stand-in Electron');
    const argv = /argv: (.*)/.exec(result.out)?.[1] ?? '';
    expect(argv).toBe(
      '--js-flags=--max-semi-space-size=4 --optimize-for-size --ozone-platform=headless --no-sandbox --disable-gpu --cli status --json',
    );
    expect(/TIMECLOCK_DATA_DIR=(\S*)/.exec(result.out)?.[1]).toBe('/var/lib/timeclock-kiosk');
    // Two malloc arenas (assets/bin/timeclock says why).
    expect(/MALLOC_ARENA_MAX=(\S*)/.exec(result.out)?.[1]).toBe('2');
    // and glibc's thresholds fixed (assets/bin/timeclock says why).
    expect(/MALLOC_MMAP_THRESHOLD_=(\S*)/.exec(result.out)?.[1]).toBe('131072');
    expect(/MALLOC_TRIM_THRESHOLD_=(\S*)/.exec(result.out)?.[1]).toBe('262144');
  });
});
