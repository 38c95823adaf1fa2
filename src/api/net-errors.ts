/**
 * Errors of the way to the service (TLS verification, the proxy) read for what they mean: whether
 * any byte of the request can have reached the server, and what an installer should do. One place,
 * so the client's error text (status' last error) and the doctor's advice say the same.
 */

export type TlsCause = 'untrusted' | 'expired' | 'name' | 'other';

const UNTRUSTED = [
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'INVALID_CA',
];
const EXPIRED = [
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
];
const NAME = ['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH'];
/** Every other verification failure OpenSSL reports by name: the certificate was refused, nothing was sent. */
const OTHER = [
  'UNABLE_TO_GET_CRL',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECRYPT_CRL_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CRL_SIGNATURE_FAILURE',
  'CRL_NOT_YET_VALID',
  'CRL_HAS_EXPIRED',
  'ERROR_IN_CRL_LAST_UPDATE_FIELD',
  'ERROR_IN_CRL_NEXT_UPDATE_FIELD',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'ERR_TLS_CERT_SIGNATURE_ALGORITHM_UNSUPPORTED',
];

const causes = new Map<string, TlsCause>([
  ...UNTRUSTED.map((c) => [c, 'untrusted'] as const),
  ...EXPIRED.map((c) => [c, 'expired'] as const),
  ...NAME.map((c) => [c, 'name'] as const),
  ...OTHER.map((c) => [c, 'other'] as const),
]);

/** Every code of a refused certificate: the handshake failed, so no byte of the request reached the server. */
export const TLS_VERIFY_CODES: ReadonlySet<string> = new Set(causes.keys());

/** What to do, by cause: the doctor's advice, and the tail of the client's error text. */
export const TLS_ADVICE: Record<TlsCause, string> = {
  untrusted: "the service's certificate is from an issuer this terminal does not trust: set api.caFile to the CA's PEM",
  expired:
    "the service's certificate is expired or not yet valid: check this terminal's date, then the service's certificate",
  name: "the service's certificate is for another name: check api.baseUrl",
  other: "the service's certificate was refused: check the service's certificate and api.caFile",
};

/** The same in a few words, for the client's error text (status' last error, logs). */
export const TLS_WORDS: Record<TlsCause, string> = {
  untrusted: "untrusted issuer: set api.caFile to the CA's PEM",
  expired: "certificate expired or not yet valid: check this terminal's date, then the service's certificate",
  name: 'certificate for another name: check api.baseUrl',
  other: "certificate refused: check the service's certificate and api.caFile",
};

export function tlsCauseOf(code: string | undefined): TlsCause | null {
  return code === undefined ? null : (causes.get(code) ?? null);
}

/** The codes on an error and its causes (undici wraps what the socket said). */
export function codesIn(e: unknown): string[] {
  const out: string[] = [];
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur && typeof cur === 'object'; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') out.push(code);
    cur = (cur as { cause?: unknown }).cause;
  }
  return out;
}

/** The certificate-verification code of this error, if it is one. */
export function tlsCodeIn(e: unknown): string | null {
  return codesIn(e).find((c) => TLS_VERIFY_CODES.has(c)) ?? null;
}

/** The proxy's answer to CONNECT when it was not 200 (undici says so only in its message), else null. */
export function proxyRefusalStatus(e: unknown): number | null {
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur && typeof cur === 'object'; i++) {
    const m = /Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/.exec(
      String((cur as { message?: unknown }).message ?? ''),
    );
    if (m) return Number(m[1]);
    cur = (cur as { cause?: unknown }).cause;
  }
  return null;
}

/** What a proxy's refusal of CONNECT means, in a few words. */
export function proxyRefusalWords(status: number): string {
  if (status === 407)
    return '407: the proxy wants credentials (user:password in api.proxy or HTTPS_PROXY) or refused the ones given';
  if (status === 403)
    return "403: the proxy does not allow this host and port; ask its administrator to allow the API's host and port";
  return `${status}`;
}

/**
 * Whether nothing of the request can have reached the server for a reason of the way there: a
 * refused certificate (the handshake never finished; a reused connection is not verified again),
 * or the proxy refusing the tunnel or failing its own TLS. DNS and refused connections are the
 * client's own list.
 */
export function beforeServer(e: unknown): boolean {
  return tlsCodeIn(e) !== null || proxyRefusalStatus(e) !== null || codesIn(e).includes('UND_ERR_PRX_TLS');
}

/**
 * A few words on a failure of the way to the service, appended to the error's own text: the TLS
 * cause and what to do, or the proxy's refusal; `via` names the proxy when one is in use.
 */
/** Node's own hint on an untrusted issuer points at --use-system-ca; the terminal's answer is api.caFile. */
export function withoutNodeCaHint(text: string): string {
  return text.replace(/; if the root CA is installed locally, try running Node\.js with --use-system-ca/, '');
}

export function networkHint(e: unknown, via: string | null): string {
  const parts: string[] = [];
  const tls = tlsCodeIn(e);
  if (tls) parts.push(TLS_WORDS[tlsCauseOf(tls) ?? 'other']);
  const refused = proxyRefusalStatus(e);
  if (refused !== null) parts.push(`the proxy refused the tunnel (${proxyRefusalWords(refused)})`);
  if (via) parts.push(`via proxy ${via}`);
  return parts.length ? ` — ${parts.join('; ')}` : '';
}
