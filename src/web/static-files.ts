/**
 * The renderer's files, served read-only from one directory. The request path is decoded once and
 * resolved against the directory (and symlinks followed); anything that lands outside it, or is not
 * a regular file, is "not found", the same answer as a file that does not exist.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.woff2': 'font/woff2',
};

export function contentType(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export type StaticFile = { body: Buffer; type: string };

/** `rawPath` is the request path as sent (before `?`), still percent-encoded. */
export async function readStatic(rootReal: string, rawPath: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return null;
  const rel = decoded === '/' ? 'index.html' : decoded.slice(1);
  const candidate = path.resolve(rootReal, rel);
  if (!inside(rootReal, candidate)) return null;
  try {
    const real = await fs.realpath(candidate);
    if (!inside(rootReal, real)) return null;
    const st = await fs.stat(real);
    if (!st.isFile()) return null;
    return { body: await fs.readFile(real), type: contentType(real) };
  } catch {
    return null;
  }
}

function inside(root: string, p: string): boolean {
  return p.startsWith(root + path.sep);
}
