/**
 * Where a token set on the admin screen is kept: the 0600 file store (headless, and the fallback
 * without a secret store) and the Electron safeStorage store, on real files, with a fake
 * safeStorage whose Linux backend the test chooses.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { safeStorageTokenStore, secretStoreProblem } from '../../src/main/safe-storage-token.js';
import {
  FileTokenStore,
  PrivateFileError,
  TOKEN_ENC_FILE_NAME,
  TOKEN_FILE_NAME,
} from '../../src/store/private-file.js';
import { FakeSafeStorage } from '../helpers/fake-electron.js';
import { tempDir } from '../helpers/temp.js';

const TOKEN = 'tok-3f9a1c7e5b2d8046-secret';
const cleanups: Array<() => void> = [];
afterEach(() => {
  vi.restoreAllMocks();
  while (cleanups.length) cleanups.pop()?.();
});
function dir(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}
const mode = (file: string) => fs.statSync(file).mode & 0o777;
const leftovers = (d: string) => fs.readdirSync(d).filter((f) => f.endsWith('.tmp'));

describe('the file token store', () => {
  it('saves with mode 0600 whatever the umask, and reads back what it saved', () => {
    const d = dir();
    const store = new FileTokenStore(d);
    expect(store.load()).toBeNull();
    const old = process.umask(0o000);
    try {
      store.save(TOKEN);
    } finally {
      process.umask(old);
    }
    const file = path.join(d, TOKEN_FILE_NAME);
    expect(mode(file)).toBe(0o600);
    expect(store.load()).toBe(TOKEN);
    store.save('second-token');
    expect(mode(file)).toBe(0o600);
    expect(store.load()).toBe('second-token');
    expect(leftovers(d)).toEqual([]);
    store.clear();
    expect(fs.existsSync(file)).toBe(false);
    expect(store.load()).toBeNull();
    expect(store.source).toBe('file');
    expect(store.warning).toBeNull();
  });

  it('trims one trailing newline (a token written with echo), not more', () => {
    const d = dir();
    const file = path.join(d, TOKEN_FILE_NAME);
    fs.writeFileSync(file, `${TOKEN}\n`, { mode: 0o600 });
    expect(new FileTokenStore(d).load()).toBe(TOKEN);
    fs.writeFileSync(file, `${TOKEN}\r\n`, { mode: 0o600 });
    expect(new FileTokenStore(d).load()).toBe(TOKEN);
    fs.writeFileSync(file, '\n', { mode: 0o600 });
    expect(new FileTokenStore(d).load()).toBeNull();
  });

  it('a write that fails half-way (disk full) leaves the old token whole and no temp file', () => {
    const d = dir();
    const store = new FileTokenStore(d);
    store.save(TOKEN);
    const write = vi.spyOn(fs, 'writeSync').mockImplementationOnce(() => {
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    });
    expect(() => store.save('new-token-never-written')).toThrow(/cannot write .*api-token: ENOSPC/);
    write.mockRestore();
    expect(store.load()).toBe(TOKEN);
    expect(leftovers(d)).toEqual([]);
  });

  it('the new content appears only by the rename: a failed rename leaves the old file and no temp file', () => {
    const d = dir();
    const store = new FileTokenStore(d);
    store.save(TOKEN);
    const rename = vi.spyOn(fs, 'renameSync').mockImplementationOnce(() => {
      throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
    });
    expect(() => store.save('replacement')).toThrow(PrivateFileError);
    expect(rename).toHaveBeenCalledTimes(1);
    const [from, to] = rename.mock.calls[0] as [string, string];
    expect(path.dirname(from)).toBe(d); // the temp file is in the same directory (same filesystem)
    expect(to).toBe(path.join(d, TOKEN_FILE_NAME));
    rename.mockRestore();
    expect(store.load()).toBe(TOKEN);
    expect(leftovers(d)).toEqual([]);
  });

  it('refuses a file group or others can read, naming the file and the fix, never its content', () => {
    const d = dir();
    const file = path.join(d, TOKEN_FILE_NAME);
    fs.writeFileSync(file, TOKEN);
    fs.chmodSync(file, 0o644);
    const store = new FileTokenStore(d);
    let err: Error | null = null;
    try {
      store.load();
    } catch (e) {
      err = e as Error;
    }
    expect(err).toBeInstanceOf(PrivateFileError);
    expect(err?.message).toContain(file);
    expect(err?.message).toContain(`chmod 600 ${file}`);
    expect(err?.message).toContain('0644');
    expect(err?.message).not.toContain(TOKEN);
    fs.chmodSync(file, 0o600);
    expect(store.load()).toBe(TOKEN);
  });

  it('refuses what is not a regular file: a symlink to a readable file, a directory', () => {
    const d = dir();
    const target = path.join(d, 'elsewhere');
    fs.writeFileSync(target, TOKEN, { mode: 0o600 });
    fs.symlinkSync(target, path.join(d, TOKEN_FILE_NAME));
    expect(() => new FileTokenStore(d).load()).toThrow(/is not a regular file/);
    const d2 = dir();
    fs.mkdirSync(path.join(d2, TOKEN_FILE_NAME));
    expect(() => new FileTokenStore(d2).load()).toThrow(/is not a regular file/);
    // And a save onto a directory fails as a whole: nothing half-written.
    expect(() => new FileTokenStore(d2).save(TOKEN)).toThrow(PrivateFileError);
    expect(leftovers(d2)).toEqual([]);
  });
});

describe('the Electron safeStorage token store', () => {
  it('with a secret store (gnome_libsecret): ciphertext in api-token.enc (0600), no plain token bytes on disk', () => {
    const d = dir();
    const safe = new FakeSafeStorage('gnome_libsecret');
    const store = safeStorageTokenStore(safe, d, { platform: 'linux' });
    expect(store.source).toBe('keyring');
    expect(store.warning).toBeNull();
    store.save(TOKEN);
    expect(safe.encrypted).toBe(1);
    const enc = path.join(d, TOKEN_ENC_FILE_NAME);
    expect(mode(enc)).toBe(0o600);
    expect(fs.existsSync(path.join(d, TOKEN_FILE_NAME))).toBe(false);
    for (const f of fs.readdirSync(d)) {
      const bytes = fs.readFileSync(path.join(d, f));
      expect(bytes.includes(Buffer.from(TOKEN)), f).toBe(false);
      expect(bytes.includes(Buffer.from(TOKEN.slice(4, 20))), f).toBe(false);
    }
    expect(safeStorageTokenStore(safe, d, { platform: 'linux' }).load()).toBe(TOKEN);
    store.clear();
    expect(fs.existsSync(enc)).toBe(false);
    expect(store.load()).toBeNull();
  });

  it('a ciphertext the secret store cannot decrypt is refused with what to do', () => {
    const d = dir();
    fs.writeFileSync(path.join(d, TOKEN_ENC_FILE_NAME), 'garbage', { mode: 0o600 });
    expect(() => safeStorageTokenStore(new FakeSafeStorage(), d, { platform: 'linux' }).load()).toThrow(
      /cannot be decrypted .*set the token again/,
    );
  });

  it.each(['basic_text', 'unknown'])(
    'Linux backend %s (no secret store): the 0600 file store, with a warning saying so',
    (backend) => {
      const d = dir();
      const store = safeStorageTokenStore(new FakeSafeStorage(backend), d, { platform: 'linux' });
      expect(store.source).toBe('file');
      expect(store.warning).toMatch(/no system secret store/);
      expect(store.warning).toContain(path.join(d, TOKEN_FILE_NAME));
      expect(store.warning).toMatch(/readable only by the kiosk user/);
      store.save(TOKEN);
      expect(mode(path.join(d, TOKEN_FILE_NAME))).toBe(0o600);
      expect(fs.existsSync(path.join(d, TOKEN_ENC_FILE_NAME))).toBe(false);
    },
  );

  it('encryption unavailable: the file store; the backend is asked on Linux only', () => {
    const safe = new FakeSafeStorage('basic_text');
    expect(secretStoreProblem(safe, 'win32')).toBeNull(); // DPAPI: no Linux backend question
    safe.available = false;
    expect(secretStoreProblem(safe, 'win32')).toMatch(/not available/);
    expect(safeStorageTokenStore(safe, dir(), { platform: 'linux' }).source).toBe('file');
  });

  it('a token kept in the plain file while there was no secret store moves into it once there is one', () => {
    const d = dir();
    safeStorageTokenStore(new FakeSafeStorage('basic_text'), d, { platform: 'linux' }).save(TOKEN);
    expect(fs.existsSync(path.join(d, TOKEN_FILE_NAME))).toBe(true);
    const keyring = safeStorageTokenStore(new FakeSafeStorage('kwallet5'), d, { platform: 'linux' });
    expect(keyring.load()).toBe(TOKEN);
    expect(fs.existsSync(path.join(d, TOKEN_FILE_NAME))).toBe(false);
    expect(fs.readFileSync(path.join(d, TOKEN_ENC_FILE_NAME)).includes(Buffer.from(TOKEN))).toBe(false);
    // And back without one: the warning says the saved token cannot be read now.
    expect(safeStorageTokenStore(new FakeSafeStorage('basic_text'), d, { platform: 'linux' }).warning).toMatch(
      /cannot be read now/,
    );
  });
});
