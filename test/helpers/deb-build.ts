/**
 * The deb step of `npm run dist` for the packaging test: electron-builder's deb target on an
 * already packed app, with the package's own files from scripts/dist/deb-layout.mjs (as
 * scripts/dist.mjs passes them), and test/helpers/fpm-stand-in.mjs in fpm's place (electron-builder
 * downloads fpm, a Ruby program; Debian has none), which builds the .deb with dpkg-deb.
 */
import fs from 'node:fs';
import path from 'node:path';

export type FpmRecord = { args: string[]; scripts: Record<string, string> };

export async function buildDeb(o: {
  root: string;
  unpacked: string;
  work: string;
  electronVersion: string;
}): Promise<{ deb: string; record: FpmRecord }> {
  const recordFile = path.join(o.work, 'fpm.json');
  const fpm = path.join(o.work, 'fpm-stand-in');
  fs.writeFileSync(
    fpm,
    `#!/bin/sh\nexec '${process.execPath}' '${path.join(o.root, 'test/helpers/fpm-stand-in.mjs')}' "$@"\n`,
    { mode: 0o755 },
  );
  const { stageDebLayout } = (await import(path.join(o.root, 'scripts/dist/deb-layout.mjs'))) as {
    stageDebLayout(root: string, dir: string): string[];
  };
  const { build, Platform } = (await import('electron-builder')) as typeof import('electron-builder');
  const saved = { CUSTOM_FPM_PATH: process.env.CUSTOM_FPM_PATH, FPM_RECORD: process.env.FPM_RECORD };
  process.env.CUSTOM_FPM_PATH = fpm;
  process.env.FPM_RECORD = recordFile;
  try {
    const outputs = await build({
      projectDir: o.root,
      prepackaged: o.unpacked,
      targets: Platform.LINUX.createTarget(['deb']),
      config: {
        extends: path.join(o.root, 'electron-builder.yml'),
        electronVersion: o.electronVersion,
        directories: {
          app: path.join(o.work, 'build/app'),
          output: path.join(o.work, 'deb-out'),
          buildResources: 'assets',
        },
        deb: { fpm: stageDebLayout(o.root, path.join(o.work, 'build/deb')) },
      },
    });
    const deb = outputs.find((f) => f.endsWith('.deb'));
    if (!deb) throw new Error(`electron-builder made no .deb (${outputs.join(', ')})`);
    return { deb, record: JSON.parse(fs.readFileSync(recordFile, 'utf8')) as FpmRecord };
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}
