// The sizes of the packaged app, measured on the unpacked app after every build (scripts/dist.mjs
// prints them and writes them to release/sizes.json): the README's figures come from here, and the
// packaging test checks the README against a fresh build, so they cannot go stale unnoticed.
import fs from 'node:fs';
import path from 'node:path';

function sizeOf(p) {
  const st = fs.lstatSync(p);
  if (!st.isDirectory()) return st.size;
  return fs.readdirSync(p).reduce((n, f) => n + sizeOf(path.join(p, f)), 0);
}

/** Bytes of the unpacked app (`release/linux-unpacked`), of app.asar and of the files unpacked beside it. */
export function measureApp(unpacked) {
  const res = path.join(unpacked, 'resources');
  const nativeDir = path.join(res, 'app.asar.unpacked');
  return {
    appBytes: sizeOf(unpacked),
    asarBytes: sizeOf(path.join(res, 'app.asar')),
    nativeBytes: fs.existsSync(nativeDir) ? sizeOf(nativeDir) : 0,
  };
}

/** "8.6 MiB (9.02 MB)": binary and decimal, so neither is mistaken for the other. */
export function formatSize(bytes) {
  return `${(bytes / 1_048_576).toFixed(1)} MiB (${(bytes / 1_000_000).toFixed(2)} MB)`;
}
