// The whole build, one command for `npm run build` and the test set-up:
//   1. tsc: src/ and test/ to dist/ (Node, ES modules);
//   2. tsc -p renderer: type-checks the renderer against the DOM and the bridge contract (no output);
//   3. esbuild: the renderer as one classic script (dist/renderer/app.js). A classic script, not a
//      module: Electron loads the page from file://, where Chromium refuses module scripts.
//   4. the page, its styles and the sounds next to it, so dist/renderer/ is the whole screen.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const out = path.join(root, 'dist/renderer');
const only = process.argv[2]; // 'renderer': skip step 1

/** tsc prints its own errors: stop with its exit code, without a stack trace on top. */
function typescript(project) {
  try {
    execFileSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
  } catch (e) {
    process.exit(typeof e.status === 'number' ? e.status : 1);
  }
}

if (only !== 'renderer') {
  typescript('tsconfig.json');
  // When this build was made (src/version.ts BUILD_TIME): no punch of it can be older.
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  const builtAt = new Date(Number.isFinite(epoch) && epoch > 0 ? epoch * 1000 : Date.now()).toISOString();
  fs.writeFileSync(path.join(root, 'dist/src/build-info.json'), JSON.stringify({ builtAt }) + '\n');
}
typescript('renderer/tsconfig.json');

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(path.join(out, 'sounds'), { recursive: true });
await build({
  entryPoints: [path.join(root, 'renderer/src/main.ts')],
  outfile: path.join(out, 'app.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome120'],
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});
fs.copyFileSync(path.join(root, 'renderer', 'index.html'), path.join(out, 'index.html'));
// One stylesheet served (the CSP allows 'self' only; one request), written from renderer/styles/
// in name order: the order is the cascade's.
const styles = path.join(root, 'renderer', 'styles');
const sheets = fs
  .readdirSync(styles)
  .filter((f) => f.endsWith('.css'))
  .sort();
fs.writeFileSync(
  path.join(out, 'styles.css'),
  sheets.map((f) => `/* ${f} */\n${fs.readFileSync(path.join(styles, f), 'utf8')}`).join('\n'),
);
for (const f of fs.readdirSync(path.join(root, 'assets/sounds'))) {
  if (f.endsWith('.wav')) fs.copyFileSync(path.join(root, 'assets/sounds', f), path.join(out, 'sounds', f));
}
