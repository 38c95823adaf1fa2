/**
 * A credential as it arrives from a reader, the keypad or standard input, before lookup.
 * Validation happens here, once, so nothing absurd reaches the database or the API.
 */
export type CredentialKind = 'badge' | 'id' | 'pin';
export type Credential = { kind: CredentialKind; value: string };

export const MAX_CODE_LENGTH = 64;

export type CodeCheck = { ok: true; code: string } | { ok: false; reason: string };

export function checkCode(raw: string): CodeCheck {
  const code = raw.trim();
  if (code.length === 0) return { ok: false, reason: 'empty code' };
  if (code.length > MAX_CODE_LENGTH)
    return { ok: false, reason: `code too long (${code.length} characters, at most ${MAX_CODE_LENGTH})` };
  // Control characters (C0, DEL, C1) mean a garbled read or a paste of something that is not a badge.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(code)) return { ok: false, reason: 'code contains control characters' };
  if (!/^[\p{L}\p{N}._:/-]+$/u.test(code))
    return { ok: false, reason: 'code contains characters a badge or ID never has' };
  return { ok: true, code };
}
