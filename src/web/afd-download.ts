/**
 * The web bridge's download of an exported AFD (browser mode): GET AFD_DOWNLOAD_PATH + <id>, where
 * the id is what `exportAfd` answered. The caller already passed the bridge's checks (our Host, no
 * foreign Origin, the session token in `x-kiosk-token`); here: an open admin session, a request
 * the browser itself says comes from our page (Sec-Fetch-Site), and the id served once only.
 */
import fs from 'node:fs';
import type http from 'node:http';
import type { AfdDownload } from '../agent/exports/afd-admin.js';
import type { ErrorCode } from '../contract.js';

export type DownloadDeps = {
  take(id: string): AfdDownload | null;
  /** True while an admin session is open (and keeps it open). */
  adminOk(): boolean;
  headers: Readonly<Record<string, string>>;
  sendError(
    res: http.ServerResponse,
    code: ErrorCode,
    message: string,
    o?: { status?: number; headers?: Record<string, string> },
  ): void;
};

export function serveAfdDownload(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  id: string,
  d: DownloadDeps,
): void {
  if (req.method !== 'GET')
    return d.sendError(res, 'bad_request', 'use GET', { status: 405, headers: { allow: 'GET' } });
  // Browsers say where a request comes from; another site's page (or a typed address) is not our screen.
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return d.sendError(res, 'forbidden', 'not from this page');
  if (!d.adminOk()) return d.sendError(res, 'forbidden', 'admin session required');
  const got = /^[0-9a-f]{32}$/.test(id) ? d.take(id) : null;
  if (!got) return d.sendError(res, 'not_found', 'no such download (already fetched, or expired)');
  res.writeHead(200, {
    ...d.headers,
    'content-type': got.contentType,
    'content-length': got.bytes,
    // The Annex's names are ASCII letters, digits and "_": nothing to quote or encode.
    'content-disposition': `attachment; filename="${got.name}"`,
  });
  const stream = fs.createReadStream(got.file);
  stream.on('error', () => res.destroy());
  res.on('close', () => got.done());
  stream.pipe(res);
}
