// `npm run dist` (deb and AppImage) and `npm run dist:dir` (the unpacked app only):
//   1. build (tsc and the renderer);
//   2. find the Electron runtime (ELECTRON_DIST, or downloaded), stopping with one line when it
//      cannot be had;
//   3. stage build/app: the code and a copy of the production dependencies, lean. Both native
//      modules are Node-API prebuilds (better-sqlite3 13, node-hid 3), loaded as they are by Node
//      and by Electron alike: nothing is compiled for Electron;
//   4. electron-builder (electron-builder.yml); its afterPack hook loads both native modules in the
//      packaged runtime, then sets the fuses.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MissingRuntimeError, electronVersion, resolveElectronDist } from './dist/electron-runtime.mjs';
import { stageApp } from './dist/stage-app.mjs';
import { stageDebLayout } from './dist/deb-layout.mjs';
import { formatSize, measureApp } from './dist/sizes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
// --work DIR: stage and write the packages under DIR instead of build/ and release/ (the tests).
const workAt = args.indexOf('--work');
const work = workAt >= 0 ? path.resolve(args[workAt + 1] ?? '') : null;
if (workAt >= 0) args.splice(workAt, 2);
const known = new Set(['--dir', '--skip-build']);
const bad = args.filter((a) => !known.has(a));
if (bad.length || (workAt >= 0 && !work)) {
  process.stderr.write(
    `dist: unknown argument(s) ${bad.join(' ') || '--work without a directory'} (use --dir for the unpacked app only)\n`,
  );
  process.exit(2);
}
const buildDir = work ? path.join(work, 'build') : path.join(root, 'build');
const releaseDir = work ? path.join(work, 'release') : path.join(root, 'release');
const targets = args.includes('--dir') ? ['dir'] : ['deb', 'AppImage'];

try {
  if (!args.includes('--skip-build'))
    execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  const version = electronVersion(root);
  const electronDist = resolveElectronDist(root);
  const app = stageApp(root, buildDir);
  // The deb's own files (units, rules, links, /etc, docs), owned by dpkg: scripts/dist/deb-layout.mjs.
  const debFpmArgs = stageDebLayout(root, path.join(buildDir, 'deb'));
  // electron-builder is CommonJS; loaded here so a missing runtime is reported before it starts.
  const { build, Platform } = await import('electron-builder');
  const outputs = await build({
    projectDir: root,
    targets: Platform.LINUX.createTarget(targets),
    config: {
      extends: path.join(root, 'electron-builder.yml'),
      electronDist,
      electronVersion: version,
      directories: { app, output: releaseDir, buildResources: 'assets' },
      deb: { fpm: debFpmArgs },
    },
  });
  const unpacked = path.join(releaseDir, 'linux-unpacked');
  const sizes = measureApp(unpacked);
  const packages = Object.fromEntries(
    outputs.filter((f) => /\.(deb|AppImage)$/.test(f)).map((f) => [path.basename(f), fs.statSync(f).size]),
  );
  fs.writeFileSync(path.join(releaseDir, 'sizes.json'), JSON.stringify({ ...sizes, packages }, null, 2) + '\n');
  const report = [
    `unpacked app ${formatSize(sizes.appBytes)}`,
    `app.asar ${formatSize(sizes.asarBytes)}`,
    `unpacked native files ${formatSize(sizes.nativeBytes)}`,
  ];
  for (const [name, bytes] of Object.entries(packages)) report.push(`${name} ${formatSize(bytes)}`);
  const sizesFile = path.join(releaseDir, 'sizes.json');
  const shown = path.relative(root, sizesFile).startsWith('..') ? sizesFile : path.relative(root, sizesFile);
  process.stdout.write(`dist: ${report.join(', ')} (${shown})\n`);
} catch (e) {
  if (e instanceof MissingRuntimeError) {
    process.stderr.write(`dist: ${e.message}\n`);
    process.exit(1);
  }
  throw e;
}
