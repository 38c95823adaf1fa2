// The files of the Debian package beside the app under /opt (issue 27): systemd units, udev
// rules, sysusers.d and tmpfiles.d entries, the X session, the /usr/bin links, /etc/timeclock-kiosk
// and the package's documentation, staged as a tree that electron-builder hands to fpm with the
// app (`deb.fpm`: "<tree>/=/"). So dpkg owns them: `dpkg -S`, debsums and conffile prompts work,
// and removing the package takes them away; the maintainer scripts only do what unpacking cannot.
import fs from 'node:fs';
import path from 'node:path';

export const APP_DIR = '/opt/timeclock-kiosk';
export const ETC_DIR = '/etc/timeclock-kiosk';

/** Package path → file in the project (copied with its mode, 0644 unless given). */
export const PACKAGE_FILES = {
  '/usr/lib/systemd/system/timeclock-kiosk.service': 'assets/timeclock-kiosk.service',
  '/usr/lib/systemd/system/timeclock-kiosk-cage.service': 'assets/timeclock-kiosk-cage.service',
  '/usr/lib/systemd/system/timeclock-kiosk-usb@.service': 'assets/timeclock-kiosk-usb@.service',
  '/usr/lib/udev/rules.d/60-timeclock-readers.rules': 'assets/60-timeclock-readers.rules',
  '/usr/lib/udev/rules.d/61-timeclock-usb-drives.rules': 'assets/61-timeclock-usb-drives.rules',
  '/usr/lib/sysusers.d/timeclock-kiosk.conf': 'assets/deb/timeclock-kiosk.sysusers',
  '/usr/lib/tmpfiles.d/timeclock-kiosk.conf': 'assets/deb/timeclock-kiosk.tmpfiles',
  '/usr/share/polkit-1/rules.d/60-timeclock-kiosk.rules': 'assets/60-timeclock-kiosk.polkit.rules',
  '/usr/share/xsessions/timeclock-kiosk.desktop': 'assets/timeclock-kiosk.desktop',
  '/usr/share/doc/timeclock-kiosk/copyright': 'assets/deb/copyright',
  '/usr/share/lintian/overrides/timeclock-kiosk': 'assets/deb/lintian-overrides',
  [`${ETC_DIR}/config.example.json`]: 'assets/config.example.json',
  [`${ETC_DIR}/env`]: 'assets/deb/env',
};
/** The token file is root's alone. */
const MODES = { [`${ETC_DIR}/env`]: 0o600 };

/** /etc files an administrator edits: dpkg keeps their edits on upgrade (conffiles). */
export const CONFFILES = [`${ETC_DIR}/env`, `${ETC_DIR}/config.example.json`];

/** The commands on PATH: links into the app (absolute: /usr and /opt are different trees). */
export const LINKS = {
  '/usr/bin/timeclock': `${APP_DIR}/resources/bin/timeclock`,
  '/usr/bin/timeclock-kiosk-session': `${APP_DIR}/resources/bin/timeclock-kiosk-session`,
  '/usr/bin/timeclock-kiosk': `${APP_DIR}/timeclock-kiosk`,
};

/** A Debian changelog entry for this version (fpm installs it as usr/share/doc/<name>/changelog.gz). */
function changelog(pkg, when) {
  const date = when.toUTCString().replace('GMT', '+0000');
  return `${pkg.name} (${pkg.version}) unstable; urgency=medium\n\n  * Release ${pkg.version}; changes are in the project's history.\n\n -- ${pkg.author.name} <${pkg.author.email}>  ${date}\n`;
}

/**
 * Stages the package's own files under `dir` (emptied first) and returns the arguments for fpm
 * (electron-builder's `deb.fpm`): the prerm, the changelog, the conffiles and the tree itself.
 */
export function stageDebLayout(root, dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  const tree = path.join(dir, 'root');
  const at = (p) => path.join(tree, p);
  for (const [dest, src] of Object.entries(PACKAGE_FILES)) {
    fs.mkdirSync(path.dirname(at(dest)), { recursive: true, mode: 0o755 });
    fs.copyFileSync(path.join(root, src), at(dest));
    fs.chmodSync(at(dest), MODES[dest] ?? 0o644);
  }
  for (const [link, target] of Object.entries(LINKS)) {
    fs.mkdirSync(path.dirname(at(link)), { recursive: true, mode: 0o755 });
    fs.symlinkSync(target, at(link));
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  const when = new Date(Number.isFinite(epoch) && epoch > 0 ? epoch * 1000 : Date.now());
  const changelogFile = path.join(dir, 'changelog');
  fs.writeFileSync(changelogFile, changelog(pkg, when));
  return [
    '--before-remove',
    path.join(root, 'assets/deb/prerm'),
    '--deb-changelog',
    changelogFile,
    ...CONFFILES.flatMap((f) => ['--config-files', f]),
    `${tree}/=/`,
  ];
}

