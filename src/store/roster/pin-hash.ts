/**
 * A PIN's scrypt hash: the cost parameters (stored as JSON beside each hash, checked on the way
 * back so a corrupt row cannot ask for gigabytes), the salt size, and the hashing itself.
 */
import crypto from 'node:crypto';

/** scrypt cost parameters; stored as JSON beside each hash, so they can be raised later. */
export type ScryptParams = { N: number; r: number; p: number; keylen: number };

export const DEFAULT_SCRYPT_PARAMS: Readonly<ScryptParams> = Object.freeze({ N: 16_384, r: 8, p: 1, keylen: 32 });
export const PIN_SALT_BYTES = 16;

export type StoredParams = ScryptParams & { alg: 'scrypt' };

export const isInt = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** Bounds that keep a (possibly corrupt) stored row from asking for gigabytes of memory. */
export function validScryptParams(v: unknown): v is ScryptParams {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    isInt(o.N, 2, 2 ** 22) &&
    ((o.N as number) & ((o.N as number) - 1)) === 0 &&
    isInt(o.r, 1, 32) &&
    isInt(o.p, 1, 16) &&
    isInt(o.keylen, 16, 64)
  );
}

export function parseStoredParams(json: string, employeeId: string): ScryptParams {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    v = null;
  }
  if (!validScryptParams(v) || (v as { alg?: unknown }).alg !== 'scrypt') {
    throw new Error(`the stored PIN of employee ${employeeId} has unreadable hash parameters; set the PIN again`);
  }
  return { N: v.N, r: v.r, p: v.p, keylen: v.keylen };
}

export function scrypt(pin: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  // OpenSSL needs 128·r·(N+2) + 128·r·p bytes; Node's default ceiling (32 MiB) is too low for
  // raised parameters, so allow what these parameters need, with some room.
  const maxmem = Math.max(32 * 1024 * 1024, 128 * params.r * (params.N + 2) + 128 * params.r * params.p + 1024 * 1024);
  return new Promise((resolve, reject) => {
    crypto.scrypt(pin, salt, params.keylen, { N: params.N, r: params.r, p: params.p, maxmem }, (err, key) => {
      if (err) reject(err);
      else resolve(key);
    });
  });
}
