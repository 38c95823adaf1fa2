/**
 * The Debian package's maintainer scripts (assets/deb/postinst and postrm, electron-builder's deb
 * afterInstall/afterRemove) run by /bin/sh as dpkg runs them, into a fake root via DPKG_ROOT: the
 * real groupadd/useradd --prefix make the kiosk user there (hence root, as on CI), files land under
 * the fake root, and what would touch the live system is only printed. Stand-ins for systemctl,
 * udevadm, runuser (and the like) come first on PATH and log any call: none may happen.
 *
 * Proven: a first install lays out the user, links, units, udev rule, X session, a 0600 env file
 * without a token and a 0700 data directory owned by the fake root's kiosk; an existing user, data
 * directory, env file and config.json are kept as they are; an upgrade asks for a restart, and a
 * second run changes nothing; a queue left in the kiosk user's home (the app's database file name)
 * is adopted, unless the data directory has its own; remove/purge take away what postinst put
 * in place but keep the data and the configuration; the scripts pass shellcheck and hold no
 * electron-builder macro. Every fake root's path has a space in it (DPKG_ROOT is quoted throughout).
 */
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_FILE_NAME } from '../../src/store/database.js';
import {
  POSTINST,
  POSTRM,
  APP,
  DATA,
  CONF,
  LEGACY,
  LINKS,
  COPIES,
  WOULD,
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

describe('postinst: first install into an empty root', () => {
  it('creates the kiosk user, links, units, rule, session, env, config example and data directory, and runs nothing live', () => {
    const rig = fakeRoot();
    const hostAccounts = ['/etc/passwd', '/etc/group'].map((f) => fs.readFileSync(f, 'utf8'));
    const r = install(rig);

    // The kiosk group and user: system ids, /home/kiosk (made, owned by kiosk), bash.
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
    const home = fs.statSync(rig.at('/home/kiosk'));
    expect(home.isDirectory()).toBe(true);
    expect(home.uid).toBe(uid);
    expect(r.stdout).toContain('created group kiosk');
    expect(r.stdout).toContain('created user kiosk');
    // The host's own accounts are not touched.
    expect(['/etc/passwd', '/etc/group'].map((f) => fs.readFileSync(f, 'utf8'))).toEqual(hostAccounts);

    // The links point at the installed paths (absolute, not into the fake root), which exist there.
    for (const [link, target] of Object.entries(LINKS)) {
      expect(fs.lstatSync(rig.at(link)).isSymbolicLink(), link).toBe(true);
      expect(fs.readlinkSync(rig.at(link)), link).toBe(target);
      expect(exists(rig.at(target)), target).toBe(true);
    }
    // Units, udev rule and X session file: the package's own, world-readable.
    for (const [dest, src] of Object.entries(COPIES)) {
      expect(fs.readFileSync(rig.at(dest), 'utf8'), dest).toBe(fs.readFileSync(src, 'utf8'));
      expect(mode(rig.at(dest)), dest).toBe(0o644);
    }

    // The env file: root only, no token in it; the example configuration beside it; no config.json.
    const envFile = rig.at(`${CONF}/env`);
    expect(mode(envFile)).toBe(0o600);
    expect(fs.statSync(envFile).uid).toBe(0);
    const env = fs.readFileSync(envFile, 'utf8');
    expect(env).not.toMatch(/^\s*TIMECLOCK_API_TOKEN\s*=/m);
    expect(env).toMatch(/^#TIMECLOCK_API_TOKEN=$/m);
    expect(fs.readFileSync(rig.at(`${CONF}/config.example.json`), 'utf8')).toBe(fs.readFileSync('assets/config.example.json', 'utf8'));
    expect(exists(rig.at(`${CONF}/config.json`))).toBe(false);

    // The data directory: 0700, owned by the fake root's kiosk (not whatever the host calls kiosk), empty.
    const data = fs.statSync(rig.at(DATA));
    expect(data.isDirectory()).toBe(true);
    expect(data.mode & 0o7777).toBe(0o700);
    expect([data.uid, data.gid]).toEqual([uid, gid]);
    expect(fs.readdirSync(rig.at(DATA))).toEqual([]);

    // What would run is printed; nothing ran; a first install restarts nothing and adopts nothing.
    const would = r.stdout.split('\n').filter((l) => l.startsWith(WOULD));
    expect(would).toEqual([
      `${WOULD}systemctl daemon-reload`,
      `${WOULD}udevadm control --reload-rules`,
      `${WOULD}udevadm trigger --subsystem-match=hidraw`,
    ]);
    expect(r.stdout).not.toContain('try-restart');
    expect(r.stdout).not.toContain('adopt');
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
    // The configuration an operator wrote.
    fs.mkdirSync(rig.at(CONF), { recursive: true });
    const envText = '# mine\nTIMECLOCK_API_TOKEN=secret-token-123\n';
    fs.writeFileSync(rig.at(`${CONF}/env`), envText, { mode: 0o600 });
    const configText = '{ "apiBaseUrl": "https://hr.example.com/api" }\n';
    fs.writeFileSync(rig.at(`${CONF}/config.json`), configText, { mode: 0o644 });
    fs.utimesSync(rig.at(`${CONF}/config.json`), OLD_TIME, OLD_TIME);
    const dataBefore = snapshot(rig.at(DATA));
    const times = (p: string) => fs.statSync(p).mtimeMs;
    const timesBefore = [db, rig.at(DATA), rig.at(`${CONF}/config.json`)].map(times);

    const r = install(rig);

    // The user and group as they were (home /srv/kiosk, uid 1234, /bin/sh); no /home/kiosk made.
    for (const [f, text] of Object.entries(accounts)) expect(fs.readFileSync(rig.at(`/etc/${f}`), 'utf8'), f).toBe(text);
    expect(r.stdout).not.toContain('created user');
    expect(r.stdout).not.toContain('created group');
    expect(exists(rig.at('/home/kiosk'))).toBe(false);
    // The data directory untouched: mode, owner, contents, times.
    expect(snapshot(rig.at(DATA))).toEqual(dataBefore);
    expect(mode(rig.at(DATA))).toBe(0o750);
    expect(fs.statSync(rig.at(DATA)).uid).toBe(4242);
    expect(fs.readFileSync(db, 'utf8')).toBe('the queue: not a real database, and must not be opened');
    expect([db, rig.at(DATA), rig.at(`${CONF}/config.json`)].map(times)).toEqual(timesBefore);
    expect(r.stdout).not.toContain(`created ${DATA}`);
    // The token and the configuration kept.
    expect(fs.readFileSync(rig.at(`${CONF}/env`), 'utf8')).toBe(envText);
    expect(mode(rig.at(`${CONF}/env`))).toBe(0o600);
    expect(r.stdout).not.toContain(`created ${CONF}/env`);
    expect(fs.readFileSync(rig.at(`${CONF}/config.json`), 'utf8')).toBe(configText);
    // The rest installed all the same.
    for (const link of Object.keys(LINKS)) expect(exists(rig.at(link)), link).toBe(true);
    for (const dest of Object.keys(COPIES)) expect(exists(rig.at(dest)), dest).toBe(true);
    expect(rig.liveCalls()).toEqual([]);
  });
});

describe('postinst: upgrade and repeat', () => {
  it('asks for a restart of the running terminal on an upgrade (configure <old-version>)', () => {
    const rig = fakeRoot();
    install(rig);
    const r = install(rig, '0.1.0');
    expect(r.stdout).toContain(`${WOULD}systemctl try-restart timeclock-kiosk.service timeclock-kiosk-cage.service`);
    expect(r.stdout).toContain(`${WOULD}systemctl daemon-reload`);
    expect(r.stdout).not.toContain('created');
    expect(rig.liveCalls()).toEqual([]);
  });

  it('is idempotent: a second run succeeds and leaves the same files', () => {
    const rig = fakeRoot();
    install(rig);
    const first = snapshot(rig.root);
    const dataTime = fs.statSync(rig.at(DATA)).mtimeMs;
    const r = install(rig);
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toContain('created');
    expect(snapshot(rig.root)).toEqual(first);
    expect(fs.statSync(rig.at(DATA)).mtimeMs).toBe(dataTime);
    expect(fs.readFileSync(rig.at('/etc/passwd'), 'utf8').match(/^kiosk:/gm)).toHaveLength(1);
    expect(fs.readFileSync(rig.at('/etc/group'), 'utf8').match(/^kiosk:/gm)).toHaveLength(1);
    expect(rig.liveCalls()).toEqual([]);
  });
});

describe('postinst: a queue left in the kiosk user’s home', () => {
  const adoptLine = (from: string) => `${WOULD}runuser -u kiosk -- /usr/bin/timeclock data adopt --from ${from}`;

  it(`is adopted when the data directory has no ${DB_FILE_NAME} (the app's database file)`, () => {
    const rig = fakeRoot();
    fs.mkdirSync(rig.at(LEGACY), { recursive: true });
    fs.writeFileSync(rig.at(`${LEGACY}/${DB_FILE_NAME}`), 'any bytes');
    const r = install(rig);
    expect(r.stdout.split('\n')).toContain(adoptLine(LEGACY));
    // Nothing ran: the old queue is where it was.
    expect(fs.readFileSync(rig.at(`${LEGACY}/${DB_FILE_NAME}`), 'utf8')).toBe('any bytes');
    expect(rig.liveCalls()).toEqual([]);
  });

  it('is looked for in the home the fake root’s passwd gives the kiosk user', () => {
    const rig = fakeRoot();
    fs.writeFileSync(rig.at('/etc/passwd'), 'kiosk:x:1234:1235::/srv/kiosk:/bin/sh\n');
    fs.writeFileSync(rig.at('/etc/group'), 'kiosk:x:1235:\n');
    const legacy = '/srv/kiosk/.local/share/timeclock-kiosk';
    fs.mkdirSync(rig.at(legacy), { recursive: true });
    fs.writeFileSync(rig.at(`${legacy}/${DB_FILE_NAME}`), 'any bytes');
    const r = install(rig);
    expect(r.stdout.split('\n')).toContain(adoptLine(legacy));
    expect(rig.liveCalls()).toEqual([]);
  });

  it('is left alone when the data directory already has a queue', () => {
    const rig = fakeRoot();
    fs.mkdirSync(rig.at(LEGACY), { recursive: true });
    fs.writeFileSync(rig.at(`${LEGACY}/${DB_FILE_NAME}`), 'old queue');
    fs.mkdirSync(rig.at(DATA), { recursive: true, mode: 0o700 });
    fs.writeFileSync(rig.at(`${DATA}/${DB_FILE_NAME}`), 'current queue');
    const r = install(rig);
    expect(r.stdout).not.toContain('adopt');
    expect(fs.readFileSync(rig.at(`${DATA}/${DB_FILE_NAME}`), 'utf8')).toBe('current queue');
    expect(rig.liveCalls()).toEqual([]);
  });
});

describe('postrm', () => {
  /** An installed terminal with a queue and a configuration; then the package's own files gone, as dpkg leaves them before postrm remove/purge. */
  function installedThenUnpacked(rig: Rig): Record<string, string> {
    install(rig);
    fs.writeFileSync(rig.at(`${DATA}/${DB_FILE_NAME}`), 'undelivered punches', { mode: 0o600 });
    fs.writeFileSync(rig.at(`${CONF}/config.json`), '{}\n');
    fs.writeFileSync(rig.at(`${CONF}/env`), 'TIMECLOCK_API_TOKEN=secret-token-123\n');
    const kept = { ...snapshot(rig.at(DATA)), ...prefixed(snapshot(rig.at(CONF)), 'etc') };
    fs.rmSync(rig.at(APP), { recursive: true });
    return kept;
  }
  const prefixed = (s: Record<string, string>, p: string) => Object.fromEntries(Object.entries(s).map(([k, v]) => [`${p}/${k}`, v]));
  const keptNow = (rig: Rig) => ({ ...snapshot(rig.at(DATA)), ...prefixed(snapshot(rig.at(CONF)), 'etc') });
  const installedPaths = [...Object.keys(LINKS), ...Object.keys(COPIES)];

  it('remove: takes away the links, units, udev rule and session file; keeps the data and the configuration', () => {
    const rig = fakeRoot();
    const kept = installedThenUnpacked(rig);
    const r = rig.run(POSTRM, 'remove');
    expect(r.status, r.stdout + r.stderr).toBe(0);
    for (const p of installedPaths) expect(exists(rig.at(p)), p).toBe(false);
    expect(keptNow(rig)).toEqual(kept);
    expect(fs.readFileSync(rig.at(`${DATA}/${DB_FILE_NAME}`), 'utf8')).toBe('undelivered punches');
    expect(entry(rig, 'passwd', 'kiosk')).toBeDefined();
    expect(rig.liveCalls()).toEqual([]);
  });

  it('purge: takes away the same, still keeps the data and the configuration, and says where they are', () => {
    const rig = fakeRoot();
    const kept = installedThenUnpacked(rig);
    const r = rig.run(POSTRM, 'purge');
    expect(r.status, r.stdout + r.stderr).toBe(0);
    for (const p of installedPaths) expect(exists(rig.at(p)), p).toBe(false);
    expect(keptNow(rig)).toEqual(kept);
    expect(r.stdout).toContain(DATA);
    expect(r.stdout).toContain(CONF);
    expect(r.stdout).toMatch(/kept/);
    expect(rig.liveCalls()).toEqual([]);
  });

  it('upgrade: removes nothing', () => {
    const rig = fakeRoot();
    install(rig);
    const before = snapshot(rig.root);
    const r = rig.run(POSTRM, 'upgrade', '0.2.0');
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(snapshot(rig.root)).toEqual(before);
    expect(rig.liveCalls()).toEqual([]);
  });
});

describe('the scripts as electron-builder and shellcheck see them', () => {
  it('pass shellcheck -s sh', () => {
    const r = spawnSync('shellcheck', ['-s', 'sh', POSTINST, POSTRM], { encoding: 'utf8' });
    if (r.error) throw new Error(`shellcheck could not run (${r.error.message}); .ci/run installs it`);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('hold no macro for electron-builder to expand (a dollar sign, braces, letters only)', () => {
    for (const file of [POSTINST, POSTRM]) expect(fs.readFileSync(file, 'utf8'), file).not.toMatch(/\$\{[a-zA-Z]+\}/);
  });
});
