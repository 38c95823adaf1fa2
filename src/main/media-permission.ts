/**
 * Issue 31: the kiosk window's permissions. Nothing is granted, except, with photo.mode on-punch,
 * `media` for video alone, asked by the renderer's own page in its main frame: no microphone, no
 * other page or frame, no other permission (notifications, HID, geolocation, clipboard...).
 */
import type { MediaCheckDetails, MediaRequestDetails, Session, WebContents } from './electron-api.js';

/** The request handler's answer: the camera only, for the kiosk page only, only when photos are on. */
/**
 * `ownPage`: whether a URL is the renderer's page (kiosk-window.ts isRendererUrl, passed in: that file installs these).
 */
export type OwnPage = (url: string) => boolean;

export function grantsRequest(
  camera: boolean,
  ownPage: OwnPage,
  permission: string,
  details: MediaRequestDetails | undefined,
): boolean {
  if (!camera || permission !== 'media' || !details) return false;
  const types = details.mediaTypes ?? [];
  return (
    details.isMainFrame === true &&
    ownPage(details.requestingUrl ?? '') &&
    types.length > 0 &&
    types.every((t) => t === 'video')
  );
}

/** The check handler's answer (Chromium asks before enumerating devices and on getUserMedia). */
export function grantsCheck(
  camera: boolean,
  ownPage: OwnPage,
  permission: string,
  requestingOrigin: string,
  details: MediaCheckDetails | undefined,
): boolean {
  if (!camera || permission !== 'media' || !details) return false;
  const url = details.requestingUrl ?? '';
  // A file page's origin is "file://" (opaque): the URL names the page.
  const ownOrigin = requestingOrigin === 'file://' || requestingOrigin === 'file:///' || requestingOrigin === '';
  return ownOrigin && details.mediaType === 'video' && ownPage(url);
}

export function installPermissions(ses: Session, own: WebContents, ownPage: OwnPage, camera: boolean): void {
  ses.setPermissionRequestHandler((wc, permission, callback, details) =>
    callback(wc === own && grantsRequest(camera, ownPage, permission, details)),
  );
  ses.setPermissionCheckHandler(
    (wc, permission, requestingOrigin, details) =>
      wc === own && grantsCheck(camera, ownPage, permission, requestingOrigin ?? '', details),
  );
}
