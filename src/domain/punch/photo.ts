/**
 * A punch's photo (issue 31), the pure part: what a JPEG from the screen must look like, and the
 * detail of the journal facts that seal it. The bytes' hash is computed at the edge and passed in.
 */

/** The most bytes a photo may have whatever the configuration says (its base64 fits the web bridge's 64 KiB body). */
export const PHOTO_MAX_BYTES = 45_000;

/** A JPEG: starts with SOI and a marker (FF D8 FF) and ends with EOI (FF D9). */
export function isJpeg(bytes: Uint8Array): boolean {
  const n = bytes.length;
  return (
    n >= 4 &&
    bytes[0] === 0xff &&
    bytes[1] === 0xd8 &&
    bytes[2] === 0xff &&
    bytes[n - 2] === 0xff &&
    bytes[n - 1] === 0xd9
  );
}

/** The file a punch's photo is kept in, inside the photos directory: its NSR, nine digits. */
export function photoFileName(nsr: number): string {
  return `${String(nsr).padStart(9, '0')}.jpg`;
}

/** The NSR a photo file's name says, or null when the name is not one of ours. */
export function nsrOfPhotoFile(name: string): number | null {
  const m = /^(\d{9})\.jpg$/.exec(name);
  return m ? Number(m[1]) : null;
}

/** The 'photo' fact's detail: what `journal verify` checks the file against. */
export function photoFactDetail(sha256Hex: string, bytes: number): string {
  return `sha256 ${sha256Hex} ${bytes} bytes`;
}

export function parsePhotoFactDetail(detail: string): { sha256: string; bytes: number } | null {
  const m = /^sha256 ([0-9a-f]{64}) (\d+) bytes$/.exec(detail);
  return m ? { sha256: m[1] as string, bytes: Number(m[2]) } : null;
}

/** Why a punch has no photo, as the screen reports it ("sem foto"). */
export const CAMERA_PROBLEMS = ['missing', 'denied', 'busy', 'failed', 'unsupported'] as const;
export type CameraProblem = (typeof CAMERA_PROBLEMS)[number];
