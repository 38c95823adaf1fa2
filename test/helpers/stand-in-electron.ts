/**
 * A stand-in for an unpacked Electron distribution, for packaging tests on a machine that cannot
 * download Electron: the same layout electron-builder copies (`electron`, `version`, resources/,
 * locales/, chrome-sandbox; no default_app.asar, which electron-builder would hash as an archive) and a real fuse wire
 * (the sentinel @electron/fuses looks for, with
 * Electron's default fuses), so fuses are flipped and read back for real. Its `electron` is a shell
 * script that runs a given Node in place of Electron's Node mode (ELECTRON_RUN_AS_NODE=1), which is
 * all the build's after-pack check uses; otherwise it prints its arguments and exits 3.
 */
import fs from 'node:fs';
import path from 'node:path';

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/**
 * Electron's defaults: runAsNode on, cookie encryption off, NODE_OPTIONS on, --inspect on, asar integrity off,
 * only-asar off, browser V8 snapshot off, file:// privileges on.
 */
export const DEFAULT_FUSE_WIRE = '10110001';

export function makeStandInElectron(dir: string, opts: { node: string; version: string }): string {
  fs.mkdirSync(path.join(dir, 'resources'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'locales'), { recursive: true });
  const wire = Buffer.concat([
    Buffer.from(`# ${SENTINEL}`),
    Buffer.from([1, DEFAULT_FUSE_WIRE.length]),
    Buffer.from(`${DEFAULT_FUSE_WIRE}\n`),
  ]);
  const script = [
    '#!/bin/sh',
    '# Stand-in for the Electron executable in packaging tests (not Electron).',
    'if [ "$ELECTRON_RUN_AS_NODE" = 1 ]; then',
    `  exec '${opts.node.replace(/'/g, `'\\''`)}' "$@"`,
    'fi',
    'echo "stand-in Electron: no GUI runtime here" >&2',
    'echo "argv: $*" >&2',
    'echo "TIMECLOCK_DATA_DIR=$TIMECLOCK_DATA_DIR" >&2',
    'echo "MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX" >&2',
    'echo "MALLOC_MMAP_THRESHOLD_=$MALLOC_MMAP_THRESHOLD_ MALLOC_TRIM_THRESHOLD_=$MALLOC_TRIM_THRESHOLD_" >&2',
    'exit 3',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'electron'), Buffer.concat([Buffer.from(`${script}\n`), wire]), { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'version'), `${opts.version}\n`);
  fs.writeFileSync(path.join(dir, 'chrome-sandbox'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'LICENSE'), 'stand-in\n');
  fs.writeFileSync(path.join(dir, 'locales', 'en-US.pak'), 'stand-in\n');
  fs.writeFileSync(path.join(dir, 'locales', 'pt-BR.pak'), 'stand-in\n');
  return dir;
}
