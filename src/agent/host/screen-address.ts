/**
 * Where a running terminal's kiosk screen is, token included, for `timeclock screen-url`: written at
 * start to a 0600 file in the data directory (readable by the terminal's own user and root only),
 * removed at a clean stop. The journal gets the address without the token (issue 25); a person or a
 * script on the box with the right to read the file gets the whole address.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readPrivateFile, writePrivateFile } from '../../store/private-file.js';

export const SCREEN_URL_FILE = 'screen-url';

const fileSchema = z.object({
  pid: z.number().int().positive(),
  url: z.string().regex(/^http:\/\/[^/?#]+\/\?t=[0-9a-f]{64}$/),
});

/** Writes the file; the returned function removes it (only if it is still this process's). */
export function publishScreenAddress(dataDir: string, url: string, pid = process.pid): () => void {
  const file = path.join(dataDir, SCREEN_URL_FILE);
  writePrivateFile(file, `${JSON.stringify({ pid, url })}\n`);
  return () => {
    try {
      const now = fileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
      if (now.success && now.data.pid === pid) fs.rmSync(file, { force: true });
    } catch {
      /* already gone, or not ours to remove */
    }
  };
}

export type ScreenAddressRead = { ok: true; url: string } | { ok: false; why: string };

/** The running terminal's whole screen address, or why there is none to give. */
export function readScreenAddress(dataDir: string, alive: (pid: number) => boolean = processAlive): ScreenAddressRead {
  const file = path.join(dataDir, SCREEN_URL_FILE);
  let raw: Buffer | null;
  try {
    raw = readPrivateFile(file);
  } catch (e) {
    return { ok: false, why: (e as Error).message };
  }
  const none = `no kiosk terminal with a screen is running on ${dataDir} (nothing in ${file}; start one with 'timeclock start')`;
  if (raw === null) return { ok: false, why: none };
  let parsed;
  try {
    parsed = fileSchema.safeParse(JSON.parse(raw.toString('utf8')));
  } catch {
    parsed = null;
  }
  if (!parsed?.success) return { ok: false, why: `${file} is not a screen address written by this software` };
  if (!alive(parsed.data.pid))
    return {
      ok: false,
      why: `the terminal that wrote ${file} (pid ${parsed.data.pid}) is no longer running; ${none.split(' (')[0]}`,
    };
  return { ok: true, url: parsed.data.url };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: alive, another user's (we could read its file, so we are root or that user).
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
