// A stand-in for fpm (a Ruby program electron-builder downloads; Debian has none) for the packaging
// test: given exactly the arguments electron-builder passes fpm for a deb, it does what fpm's
// `-s dir -t deb` does with them (the subset used: metadata, -d/--deb-recommends, the four
// scripts, --config-files and files under /etc as conffiles, --deb-changelog, "src=dst" mappings,
// md5sums) and builds the .deb with dpkg-deb, owned by root. It also records the arguments and the
// scripts (electron-builder deletes its temporary copies) in $FPM_RECORD. Not fpm: what fpm would
// add on its own beyond these is not reproduced (its own control fields are, from its template).
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const args = process.argv.slice(2);
const VALUE_FLAGS = new Set([
  '-s',
  '-t',
  '--architecture',
  '--after-install',
  '--after-remove',
  '--before-install',
  '--before-remove',
  '--description',
  '--version',
  '--package',
  '--name',
  '--maintainer',
  '--vendor',
  '--url',
  '--category',
  '--deb-priority',
  '-d',
  '--deb-recommends',
  '--license',
  '--iteration',
  '--config-files',
  '--deb-changelog',
  '--deb-compression',
]);
const opts = {};
const mappings = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (VALUE_FLAGS.has(a)) (opts[a] ??= []).push(args[++i]);
  else if (a === '--force') continue;
  else if (a.startsWith('-')) throw new Error(`fpm stand-in: unsupported option ${a}`);
  else mappings.push(a);
}
const one = (f, dflt) => opts[f]?.at(-1) ?? dflt;
const many = (f) => opts[f] ?? [];
if (one('-s') !== 'dir' || one('-t') !== 'deb') throw new Error('fpm stand-in: only -s dir -t deb');

const out = one('--package');
const stage = fs.mkdtempSync(`${out}.stage-`);
const data = path.join(stage, 'pkg');
fs.mkdirSync(path.join(data, 'DEBIAN'), { recursive: true });
const scriptsSeen = {};
try {
  // Files: "src=dst"; a source ending in "/" is its contents. Modes and symbolic links as they are.
  for (const m of mappings) {
    const eq = m.lastIndexOf('=');
    const [src, dst] = [m.slice(0, eq), m.slice(eq + 1)];
    const target = path.join(data, dst);
    fs.mkdirSync(src.endsWith('/') ? target : path.dirname(target), { recursive: true });
    fs.cpSync(src.endsWith('/') ? src : src, target, {
      recursive: true,
      verbatimSymlinks: true,
      preserveTimestamps: true,
    });
  }
  const name = one('--name');
  if (one('--deb-changelog')) {
    const doc = path.join(data, 'usr/share/doc', name);
    fs.mkdirSync(doc, { recursive: true });
    fs.writeFileSync(
      path.join(doc, 'changelog.gz'),
      zlib.gzipSync(fs.readFileSync(one('--deb-changelog')), { level: 9 }),
    );
  }
  // Directories 0755 (fpm's staging directory is made with the umask; dpkg wants 0755).
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        fs.chmodSync(p, 0o755);
        if (p !== path.join(data, 'DEBIAN')) walk(p);
      }
    }
  };
  fs.chmodSync(data, 0o755);
  walk(data);
  const files = [];
  const list = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (p === path.join(data, 'DEBIAN')) continue;
      if (e.isDirectory()) list(p);
      else if (e.isFile()) files.push(`/${path.relative(data, p)}`);
    }
  };
  list(data);
  // Scripts, verbatim.
  const scripts = {
    preinst: '--before-install',
    postinst: '--after-install',
    prerm: '--before-remove',
    postrm: '--after-remove',
  };
  for (const [script, flag] of Object.entries(scripts)) {
    if (!one(flag)) continue;
    const text = fs.readFileSync(one(flag), 'utf8');
    scriptsSeen[script] = text;
    fs.writeFileSync(path.join(data, 'DEBIAN', script), text, { mode: 0o755 });
  }
  // Conffiles: the ones named, and every file under /etc (fpm's --deb-auto-config-files, on by default).
  const conffiles = [...new Set([...many('--config-files'), ...files.filter((f) => f.startsWith('/etc/'))])].sort();
  if (conffiles.length) fs.writeFileSync(path.join(data, 'DEBIAN', 'conffiles'), conffiles.join('\n') + '\n');
  fs.writeFileSync(
    path.join(data, 'DEBIAN', 'md5sums'),
    files
      .sort()
      .map(
        (f) =>
          `${crypto
            .createHash('md5')
            .update(fs.readFileSync(path.join(data, f)))
            .digest('hex')}  ${f.slice(1)}`,
      )
      .join('\n') + '\n',
  );
  const kib = Math.ceil(
    Number(
      execFileSync('du', ['-s', '-B1', '--apparent-size', '--exclude=DEBIAN', data], { encoding: 'utf8' }).split(
        '\t',
      )[0],
    ) / 1024,
  );
  // fpm's control template (templates/deb.erb), with the fields these arguments fill.
  const [synopsis, ...rest] = one('--description', 'no description given').split('\n');
  const control = [
    `Package: ${name}`,
    `Version: ${one('--version')}${one('--iteration') ? `-${one('--iteration')}` : ''}`,
    `License: ${one('--license', 'unknown')}`,
    `Vendor: ${one('--vendor', 'none')}`,
    `Architecture: ${one('--architecture')}`,
    `Maintainer: ${one('--maintainer')}`,
    `Installed-Size: ${kib}`,
    many('-d').length ? `Depends: ${many('-d').join(', ')}` : null,
    many('--deb-recommends').length ? `Recommends: ${many('--deb-recommends').join(', ')}` : null,
    `Section: ${one('--category', 'default')}`,
    `Priority: ${one('--deb-priority', 'optional')}`,
    `Homepage: ${one('--url', 'http://nourlgiven.example.com/')}`,
    `Description: ${synopsis}`,
    ...rest.map((l) => ` ${l.trim() || '.'}`),
  ].filter((l) => l !== null);
  fs.writeFileSync(path.join(data, 'DEBIAN', 'control'), control.join('\n') + '\n');
  execFileSync('dpkg-deb', ['--build', '--root-owner-group', `-Z${one('--deb-compression', 'xz')}`, data, out], {
    stdio: 'pipe',
  });
  if (process.env.FPM_RECORD) fs.writeFileSync(process.env.FPM_RECORD, JSON.stringify({ args, scripts: scriptsSeen }));
} finally {
  fs.rmSync(stage, { recursive: true, force: true });
}
