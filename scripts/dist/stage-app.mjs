// Stages the app electron-builder packs (its "two package.json" layout): build/app/ holds the built
// code and a copy of the production dependencies without what the running app never reads, so the
// package carries no sources, install-time tools or other platforms' binaries. Both native modules
// are Node-API builds (better-sqlite3 13, node-hid 3): the same file loads in Node and in Electron,
// so nothing is compiled and the project's node_modules serves `npm test` and the package alike.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Packages used only to compile a native module from source (node-addon-api's headers): the prebuilds need none. */
const INSTALL_ONLY = new Set(['prebuild-install', 'node-addon-api']);

/** Files of a dependency the running app never reads: sources, build intermediates, docs, other platforms. */
const skipInDependency = (arch) => [
  /^better-sqlite3\/(deps|src|build)(\/|$)/, // deps/ is SQLite's source, src/ the addon's: the prebuild is used
  new RegExp(`^better-sqlite3/prebuilds/(?!linux-${arch}\\.node$)`), // glibc Linux, this architecture
  new RegExp(`^better-sqlite3/lib/(darwin|win32|linuxmusl)-`),
  /^node-hid\/(hidapi|src)(\/|$)/, // the N-API prebuild is used as is
  new RegExp(`^node-hid/prebuilds/(?!HID_hidraw-linux-${arch}(/|$))[^/]+`), // the hidraw driver, this architecture
  /(^|\/)(test|tests|docs?|example|examples|\.github)(\/|$)/,
  /\.(md|markdown|ts|map|gyp|gypi|cc|cpp|c|h|hpp)$/i,
];

function copyTree(from, to, rel, keep) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const r = rel ? `${rel}/${entry.name}` : entry.name;
    if (!keep(r, entry)) continue;
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    if (entry.isDirectory()) copyTree(src, dst, r, keep);
    else if (entry.isFile()) fs.copyFileSync(src, dst);
  }
}

/**
 * The production dependency tree as npm resolved it from the lockfile (paths under node_modules),
 * without the packages only used at install time (better-sqlite3's prebuild downloader, node-hid's
 * build headers): the app would never load them.
 */
function productionPackages(root) {
  const out = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: root, encoding: 'utf8' });
  const installOnly = INSTALL_ONLY;
  const dirs = out.split('\n').map((l) => l.trim()).filter((l) => l.startsWith(path.join(root, 'node_modules') + path.sep));
  const rels = dirs.map((d) => path.relative(path.join(root, 'node_modules'), d));
  const reachable = new Set();
  const pkgOf = (rel) => JSON.parse(fs.readFileSync(path.join(root, 'node_modules', rel, 'package.json'), 'utf8'));
  // Walk from the app's own dependencies, resolving as Node would (nested node_modules first).
  const resolveFrom = (fromRel, name) => {
    let base = fromRel;
    for (;;) {
      const candidate = base ? `${base}/node_modules/${name}` : name;
      if (rels.includes(candidate)) return candidate;
      if (!base) return null;
      const i = base.lastIndexOf('/node_modules/');
      base = i >= 0 ? base.slice(0, i) : '';
    }
  };
  const visit = (rel) => {
    if (reachable.has(rel)) return;
    reachable.add(rel);
    for (const dep of Object.keys(pkgOf(rel).dependencies ?? {})) {
      if (installOnly.has(dep)) continue;
      const found = resolveFrom(rel, dep);
      if (found) visit(found);
    }
  };
  for (const dep of Object.keys(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).dependencies ?? {})) {
    const found = resolveFrom('', dep);
    if (!found) throw new Error(`dist: dependency ${dep} is not installed: run npm ci first`);
    visit(found);
  }
  return [...reachable].sort();
}

/** The app's package.json: what electron-builder and the app read, nothing of the project's tooling. */
function appManifest(rootPkg, packages) {
  const dependencies = {};
  for (const name of Object.keys(rootPkg.dependencies)) dependencies[name] = rootPkg.dependencies[name];
  return {
    name: rootPkg.name,
    productName: rootPkg.productName ?? rootPkg.name,
    version: rootPkg.version,
    description: rootPkg.description,
    author: rootPkg.author,
    homepage: rootPkg.homepage,
    license: rootPkg.license,
    type: 'module',
    main: 'dist/src/main/main.js',
    dependencies,
    // For the record (and the package test): exactly what was copied.
    timeclockBundled: packages,
  };
}

/**
 * Builds build/app from dist/ and node_modules for one architecture (the build machine's: the
 * better-sqlite3 compile is not a cross-compile). Returns the staged directory. The project must
 * be built (`npm run build`) and installed (`npm ci`) first.
 */
export function stageApp(root, buildDir = path.join(root, 'build'), arch = process.arch) {
  const skip = skipInDependency(arch);
  const app = path.join(buildDir, 'app');
  fs.rmSync(app, { recursive: true, force: true });
  fs.mkdirSync(app, { recursive: true });
  for (const part of ['dist/src', 'dist/renderer']) {
    if (!fs.existsSync(path.join(root, part))) throw new Error(`dist: ${part} is missing: the build did not run`);
    copyTree(path.join(root, part), path.join(app, part), '', (rel) => !rel.endsWith('.map') && !rel.endsWith('.d.ts'));
  }
  const packages = productionPackages(root);
  for (const rel of packages) {
    const from = path.join(root, 'node_modules', rel);
    copyTree(from, path.join(app, 'node_modules', rel), '', (r) => {
      if (r === 'node_modules' || r.startsWith('node_modules/')) return false; // nested ones are their own entries
      const full = `${rel.split('/node_modules/').pop()}/${r}`;
      return !skip.some((re) => re.test(full));
    });
  }
  // The copies' manifests no longer name the install-time packages left out, so electron-builder's
  // dependency walk does not look for them.
  for (const rel of packages) {
    const file = path.join(app, 'node_modules', rel, 'package.json');
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
    const dropped = Object.keys(pkg.dependencies ?? {}).filter((d) => INSTALL_ONLY.has(d));
    if (!dropped.length) continue;
    for (const d of dropped) delete pkg.dependencies[d];
    fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');
  }
  const rootPkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify(appManifest(rootPkg, packages), null, 2) + '\n');
  return app;
}
