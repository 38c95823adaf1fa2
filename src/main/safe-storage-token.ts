/**
 * The Electron shell's API token store: Electron's `safeStorage` encrypts the token with a key the
 * OS secret store keeps, and the ciphertext lives in `<dataDir>/api-token.enc` (0600, written
 * atomically). Where there is no secret store — encryption unavailable, or on Linux the
 * `basic_text` backend (a hard-coded key: plain text in effect) or `unknown` (asked before
 * `ready`) — the token goes to the 0600 file store instead, and the admin screen says so.
 *
 * Here, not in the agent: only the main process may touch Electron. Call after `app.whenReady()`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TokenStore } from '../agent/host/token-store.js';
import { silentLogger, type Logger } from '../log.js';
import {
  FileTokenStore,
  noSecretStoreWarning,
  readPrivateFile,
  removePrivateFile,
  TOKEN_ENC_FILE_NAME,
  TOKEN_FILE_NAME,
  writePrivateFile,
} from '../store/private-file.js';
import type { SafeStorage } from './electron-api.js';

/** Linux backends that protect nothing: Electron's own docs call them unprotected. */
const PLAIN_TEXT_BACKENDS = new Set(['basic_text', 'unknown']);

/** Why the secret store cannot be used on this machine, or null when it can. */
export function secretStoreProblem(
  safeStorage: SafeStorage,
  platform: NodeJS.Platform = process.platform,
): string | null {
  try {
    if (!safeStorage.isEncryptionAvailable()) return 'no system secret store (encryption is not available)';
    if (platform === 'linux') {
      const backend = safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
      if (PLAIN_TEXT_BACKENDS.has(backend))
        return `no system secret store (Electron's safeStorage backend is '${backend}', which keeps secrets as plain text)`;
    }
    return null;
  } catch (e) {
    return `the system secret store cannot be used (${(e as Error).message})`;
  }
}

export function safeStorageTokenStore(
  safeStorage: SafeStorage,
  dataDir: string,
  opts: { platform?: NodeJS.Platform; log?: Logger } = {},
): TokenStore {
  const log = opts.log ?? silentLogger;
  const problem = secretStoreProblem(safeStorage, opts.platform);
  if (problem === null) return new SafeStorageTokenStore(safeStorage, dataDir);
  const enc = path.join(dataDir, TOKEN_ENC_FILE_NAME);
  const lost = fs.existsSync(enc) ? `; a token saved earlier in the secret store (${enc}) cannot be read now` : '';
  const warning = noSecretStoreWarning(path.join(dataDir, TOKEN_FILE_NAME), problem) + lost;
  log.warn('no system secret store: a token set on the admin screen is kept in a file only the kiosk user can read', {
    dataDir,
  });
  return new FileTokenStore(dataDir, warning);
}

class SafeStorageTokenStore implements TokenStore {
  readonly source = 'keyring' as const;
  readonly warning = null;
  private readonly enc: string;
  /** A token kept in the plain file while there was no secret store: moved into it when found. */
  private readonly plain: FileTokenStore;

  constructor(
    private readonly safeStorage: SafeStorage,
    dataDir: string,
  ) {
    this.enc = path.join(dataDir, TOKEN_ENC_FILE_NAME);
    this.plain = new FileTokenStore(dataDir);
  }

  load(): string | null {
    const cipher = readPrivateFile(this.enc);
    if (cipher === null) {
      const plain = this.plain.load();
      if (plain !== null) {
        try {
          this.save(plain);
        } catch {
          /* stays in the 0600 file, still usable; moved at the next save */
        }
      }
      return plain;
    }
    try {
      return this.safeStorage.decryptString(cipher);
    } catch (e) {
      throw new Error(
        `${this.enc} cannot be decrypted with the system secret store (${(e as Error).message}); set the token again on the admin screen`,
      );
    }
  }

  save(token: string): void {
    let cipher: Buffer;
    try {
      cipher = this.safeStorage.encryptString(token);
    } catch (e) {
      throw new Error(`the system secret store could not encrypt the token (${(e as Error).message})`);
    }
    writePrivateFile(this.enc, cipher);
    // No plain copy may linger beside the encrypted one.
    this.plain.clear();
  }

  clear(): void {
    removePrivateFile(this.enc);
    this.plain.clear();
  }
}
