/**
 * The Content-Security-Policy of the kiosk screen, wherever it is served from (the web bridge's
 * responses, the Electron session, the page's own meta tag).
 */
export const KIOSK_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";
