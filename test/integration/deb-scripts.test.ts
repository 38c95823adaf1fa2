/**
 * The Debian package's maintainer scripts (assets/deb/postinst, prerm, postrm) run by /bin/sh as
 * dpkg runs them, into a fake root via DPKG_ROOT that holds what dpkg unpacks: the package's own
 * files as scripts/dist/deb-layout.mjs stages them for fpm (units, rules, sysusers.d, tmpfiles.d,
 * /usr/bin links, /etc/timeclock-kiosk) and the app under /opt. The real systemd-sysusers,
 * systemd-tmpfiles and deb-systemd-helper act inside the root (hence root, as on CI); stand-ins for
 * what would touch the live system (systemctl, udevadm, runuser, deb-systemd-invoke, getent,
 * useradd...) come first on PATH and log any call: none may happen.
 *
 * Proven: postinst only makes the kiosk user (sysusers.d) and its directories (tmpfiles.d) and
 * leaves every file dpkg owns as dpkg put it; an existing user, data directory, token and
 * config.json are kept as they are; the units are not enabled; a second run changes nothing;
 * remove keeps the data and the configuration; purge deletes them and keeps the user; an upgrade's
 * prerm/postrm remove nothing. The queue adoption, the udev and systemd reloads and the restart on
 * upgrade run on a live system only: checked by shellcheck here, not run. Every fake root's path
 * has a space in it (DPKG_ROOT is quoted throughout).
 */
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_FILE_NAME } from '../../src/store/database.js';
import {
  POSTINST,
  PRERM,
  POSTRM,
  APP,
  DATA,
  CONF,
  LEGACY,
  cleanups,
  fakeRoot,
  install,
  entry,
  snapshot,
  mode,
  exists,
  OLD_TIME,
  type Rig,
} from '../helpers/deb-root.js';

afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});

/** What dpkg unpacked (everything but the directories postinst makes and the account files). */
const packageFiles = (rig: Rig) =>
  Object.fromEntries(Object.entries(snapshot(rig.root)).filter(([p]) => /^(usr|opt|etc\/timeclock-kiosk)\//.test(p)));
const enabledLinks = (rig: Rig) =>
  Object.keys(snapshot(rig.root)).filter((p) => /^etc\/systemd\/system\/.*\.wants\/timeclock-kiosk/.test(p));

describe('postinst: first install into a root holding the package', () => {
  it('makes the kiosk user and its directories, touches no file dpkg owns, enables nothing and runs nothing live', () => {
    const rig = fakeRoot();
    const hostAccounts = ['/etc/passwd', '/etc/group'].map((f) => fs.readFileSync(f, 'utf8'));
    const unpacked = packageFiles(rig);
    install(rig);

    // The kiosk group and user (sysusers.d): system ids, /home/kiosk owned by kiosk, bash.
    const group = entry(rig, 'group', 'kiosk');
    const user = entry(rig, 'passwd', 'kiosk');
    expect(group, 'no kiosk group in the fake root').toBeDefined();
    expect(user, 'no kiosk user in the fake root').toBeDefined();
    const [uid, gid] = [Number(user![2]), Number(user![3])];
    expect(Number(group![2])).toBe(gid);
    for (const id of [uid, gid]) {
      expect(id).toBeGreaterThanOrEqual(100);
      expect(id).toBeLessThan(1000);
    }
    expect(user![5]).toBe('/home/kiosk');
    expect(user![6]).toBe('/bin/bash');
    expect(fs.statSync(rig.at('/home/kiosk')).uid).toBe(uid);
    expect(['/etc/passwd', '/etc/group'].map((f) => fs.readFileSync(f, 'utf8'))).toEqual(hostAccounts);

    // The data directory (tmpfiles.d): 0700, owned by the fake root's kiosk, empty; the USB mount root.
    const data = fs.statSync(rig.at(DATA));
    expect(data.mode & 0o7777).toBe(0o700);
    expect([data.uid, data.gid]).toEqual([uid, gid]);
    expect(fs.readdirSync(rig.at(DATA))).toEqual([]);
    expect(fs.statSync(rig.at('/media/timeclock')).isDirectory()).toBe(true);

    // dpkg's files as dpkg put them: the links, units, the 0600 env without a token, no config.json.
    expect(packageFiles(rig)).toEqual(unpacked);
    expect(fs.readlinkSync(rig.at('/usr/bin/timeclock'))).toBe(`${APP}/resources/bin/timeclock`);
    expect(mode(rig.at(`${CONF}/env`))).toBe(0o600);
    expect(fs.readFileSync(rig.at(`${CONF}/env`), 'utf8')).toMatch(/^#TIMECLOCK_API_TOKEN=$/m);
    expect(exists(rig.at(`${CONF}/config.json`))).toBe(false);

    expect(enabledLinks(rig)).toEqual([]);
    expect(rig.liveCalls()).toEqual([]);
  });
});

describe('postinst: what is already there is kept', () => {
  it('keeps an existing kiosk user, data directory, env file with a token and config.json as they are', () => {
    const rig = fakeRoot();
    const accounts = {
      passwd: 'kiosk:x:1234:1235:Kiosk terminal:/srv/kiosk:/bin/sh\n',
      group: 'kiosk:x:1235:\n',
      shadow: 'kiosk:!:19000::::::\n',
      gshadow: 'kiosk:!::\n',
    };
    for (const [f, text] of Object.entries(accounts)) fs.writeFileSync(rig.at(`/etc/${f}`), text);
    // A data directory with a queue, an odd mode and owner, and old times.
    fs.mkdirSync(rig.at(DATA), { recursive: true });
    const db = rig.at(`${DATA}/${DB_FILE_NAME}`);
    fs.writeFileSync(db, 'the queue: not a real database, and must not be opened', { mode: 0o640 });
    fs.chownSync(db, 4242, 4243);
    fs.chownSync(rig.at(DATA), 4242, 4243);
    fs.chmodSync(rig.at(DATA), 0o750);
    fs.utimesSync(db, OLD_TIME, OLD_TIME);
    fs.utimesSync(rig.at(DATA), OLD_TIME, OLD_TIME);
    // The configuration an operator wrote (the env file is a conffile: dpkg keeps the edit).
    const envText = '# mine\nTIMECLOCK_API_TOKEN=secret-token-123\n';
    fs.writeFileSync(rig.at(`${CONF}/env`), envText);
    const configText = '{ "apiBaseUrl": "https://hr.example.com/api" }\n';
    fs.writeFileSync(rig.at(`${CONF}/config.json`), configText, { mode: 0o644 });
    fs.utimesSync(rig.at(`${CONF}/config.json`), OLD_TIME, OLD_TIME);
    const dataBefore = snapshot(rig.at(DATA));
    const times = (p: string) => fs.statSync(p).mtimeMs;
    const timesBefore = [db, rig.at(DATA), rig.at(`${CONF}/config.json`)].map(times);

    install(rig);

    for (const [f, text] of Object.entries(accounts))
      expect(fs.readFileSync(rig.at(`/etc/${f}`), 'utf8'), f).toBe(text);
    expect(snapshot(rig.at(DATA))).toEqual(dataBefore);
    expect(mode(rig.at(DATA))).toBe(0o750);
    expect(fs.statSync(rig.at(DATA)).uid).toBe(4242);
    expect(fs.readFileSync(db, 'utf8')).toBe('the queue: not a real database, and must not be opened');
    expect([db, rig.at(DATA), rig.at(`${CONF}/config.json`)].map(times)).toEqual(timesBefore);
    expect(fs.readFileSync(rig.at(`${CONF}/env`), 'utf8')).toBe(envText);
    expect(mode(rig.at(`${CONF}/env`))).toBe(0o600);
    expect(fs.readFileSync(rig.at(`${CONF}/config.json`), 'utf8')).toBe(configText);
    expect(rig.liveCalls()).toEqual([]);
  });
});

describe('postinst: upgrade and repeat', () => {
  it('an upgrade (configure <old-version>) and a second run change nothing and run nothing live', () => {
    const rig = fakeRoot();
    install(rig);
    const first = snapshot(rig.root);
    const again = install(rig);
    expect(again.stderr).toBe('');
    const upgrade = install(rig, '0.1.0');
    expect(upgrade.stderr).toBe('');
    expect(snapshot(rig.root)).toEqual(first);
    expect(fs.readFileSync(rig.at('/etc/passwd'), 'utf8').match(/^kiosk:/gm)).toHaveLength(1);
    expect(rig.liveCalls()).toEqual([]);
  });

  it('keeps a unit the administrator enabled enabled across an upgrade', () => {
    const rig = fakeRoot();
    install(rig);
    const wants = rig.at('/etc/systemd/system/multi-user.target.wants');
    fs.mkdirSync(wants, { recursive: true });
    fs.symlinkSync('/usr/lib/systemd/system/timeclock-kiosk.service', `${wants}/timeclock-kiosk.service`);
    install(rig, '0.1.0');
    expect(enabledLinks(rig)).toEqual(['etc/systemd/system/multi-user.target.wants/timeclock-kiosk.service']);
    expect(rig.liveCalls()).toEqual([]);
  });

  it('adopts a queue left in the kiosk user’s home only on a live system: into another root it runs nothing', () => {
    const rig = fakeRoot();
    fs.mkdirSync(rig.at(LEGACY), { recursive: true });
    fs.writeFileSync(rig.at(`${LEGACY}/${DB_FILE_NAME}`), 'old queue');
    const r = install(rig);
    expect(r.stdout).not.toContain('adopt');
    expect(fs.readFileSync(rig.at(`${LEGACY}/${DB_FILE_NAME}`), 'utf8')).toBe('old queue');
    expect(rig.liveCalls()).toEqual([]);
  });
});

describe('prerm and postrm', () => {
  /**
   * An installed terminal with a queue and a configuration; then the package's files gone, as dpkg leaves them before
   * postrm.
   */
  function installedThenRemoved(rig: Rig): void {
    install(rig);
    fs.writeFileSync(rig.at(`${DATA}/${DB_FILE_NAME}`), 'undelivered punches', { mode: 0o600 });
    fs.writeFileSync(rig.at(`${CONF}/config.json`), '{}\n');
    fs.writeFileSync(rig.at(`${CONF}/env`), 'TIMECLOCK_API_TOKEN=secret-token-123\n');
    const pre = rig.run(PRERM, 'remove');
    expect(pre.status, pre.stdout + pre.stderr).toBe(0);
    fs.rmSync(rig.at(APP), { recursive: true });
    fs.rmSync(rig.at('/usr/lib/systemd/system'), { recursive: true });
  }
  const keptNow = (rig: Rig) => ({
    ...snapshot(rig.at(DATA)),
    ...Object.fromEntries(Object.entries(snapshot(rig.at(CONF))).map(([k, v]) => [`etc/${k}`, v])),
  });

  it('remove: keeps the data, the token and the configuration', () => {
    const rig = fakeRoot();
    installedThenRemoved(rig);
    const kept = keptNow(rig);
    const r = rig.run(POSTRM, 'remove');
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(keptNow(rig)).toEqual(kept);
    expect(fs.readFileSync(rig.at(`${DATA}/${DB_FILE_NAME}`), 'utf8')).toBe('undelivered punches');
    expect(rig.liveCalls()).toEqual([]);
  });

  it('purge: deletes the configuration and the data directory, keeps the kiosk user, and says so', () => {
    const rig = fakeRoot();
    installedThenRemoved(rig);
    rig.run(POSTRM, 'remove');
    const r = rig.run(POSTRM, 'purge');
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(exists(rig.at(CONF))).toBe(false);
    expect(exists(rig.at(DATA))).toBe(false);
    expect(entry(rig, 'passwd', 'kiosk')).toBeDefined();
    expect(r.stdout).toContain(`purged ${CONF} and ${DATA}`);
    expect(rig.liveCalls()).toEqual([]);
  });

  it('upgrade: prerm and postrm remove nothing', () => {
    const rig = fakeRoot();
    install(rig);
    const before = snapshot(rig.root);
    for (const [script, arg] of [
      [PRERM, 'upgrade'],
      [POSTRM, 'upgrade'],
    ] as const) {
      const r = rig.run(script, arg, '0.2.0');
      expect(r.status, r.stdout + r.stderr).toBe(0);
    }
    expect(snapshot(rig.root)).toEqual(before);
    expect(rig.liveCalls()).toEqual([]);
  });
});

describe('the scripts as electron-builder, lintian and shellcheck see them', () => {
  it('pass shellcheck -s sh', () => {
    const r = spawnSync('shellcheck', ['-s', 'sh', POSTINST, PRERM, POSTRM], { encoding: 'utf8' });
    if (r.error) throw new Error(`shellcheck could not run (${r.error.message}); .ci/run installs it`);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('hold no electron-builder macro, read no account file, call systemctl for daemon-reload only, and make no user by hand', () => {
    for (const file of [POSTINST, PRERM, POSTRM]) {
      const text = fs.readFileSync(file, 'utf8');
      const code = text
        .split('\n')
        .filter((l) => !/^\s*#/.test(l))
        .join('\n');
      expect(text, file).not.toMatch(/\$\{[a-zA-Z]+\}/);
      expect(code, file).not.toMatch(/\/etc\/(passwd|group|shadow)/);
      expect(code, file).not.toMatch(/\b(useradd|groupadd|adduser)\b/);
      for (const line of code.split('\n').filter((l) => /\bsystemctl\b/.test(l)))
        expect(line, file).toMatch(/daemon-reload/);
    }
  });
});
