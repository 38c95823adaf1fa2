/**
 * Where an API token saved from the admin screen is kept. The agent sees only this interface;
 * the implementations live at the edges: src/store/private-file.ts `FileTokenStore` (a 0600 file:
 * headless, and the fallback when there is no secret store) and src/main/safe-storage-token.ts
 * (Electron's safeStorage, which only the main process may touch). Passed into buildAgent as a
 * runtime dependency.
 *
 * No method ever puts the token in an error message.
 */
export type TokenStore = {
  /** keyring: encrypted with the OS secret store; file: a file only the kiosk user can read. */
  readonly source: 'keyring' | 'file';
  /** What the admin screen should tell the manager about this store (e.g. no secret store); null: nothing. */
  readonly warning: string | null;
  /**
   * The saved token, or null when none was saved. Throws when one is there but cannot be used (the message says why and
   * what to do).
   */
  load(): string | null;
  /** Replaces the saved token (whole or not at all). Throws on failure. */
  save(token: string): void;
  /** Forgets the saved token. */
  clear(): void;
};
