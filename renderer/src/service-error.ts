/**
 * A service error in the screen's language: the technical text the agent recorded (the network's
 * code, the HTTP status and the service's own words) mapped to a sentence a site manager can act
 * on. Pure: the screens show the sentence, with the raw text beneath it in a smaller muted line.
 */
import { t, type Lang, type MessageKey } from './i18n.js';

type Cause = { key: MessageKey; status?: string };

/** The cause a technical error text names, or null when it is none of the common ones. */
export function serviceErrorCause(raw: string): Cause | null {
  const s = raw.trim();
  if (s === '') return null;
  if (/\bECONNREFUSED\b/i.test(s)) return { key: 'svcerr.refused' };
  if (/\b(ENOTFOUND|EAI_AGAIN)\b/i.test(s)) return { key: 'svcerr.dns' };
  if (/\b(ENETUNREACH|EHOSTUNREACH|ENETDOWN|EHOSTDOWN)\b/i.test(s)) return { key: 'svcerr.unreachable' };
  if (
    /\b(CERT_[A-Z_]+|ERR_TLS_CERT_ALTNAME_INVALID|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\b/.test(
      s,
    ) ||
    /certificate/i.test(s)
  ) {
    return { key: 'svcerr.certificate' };
  }
  if (/\b(ECONNRESET|EPIPE|UND_ERR_SOCKET)\b/i.test(s) || /socket hang up|other side closed/i.test(s))
    return { key: 'svcerr.reset' };
  if (/\b(ETIMEDOUT|ESOCKETTIMEDOUT|UND_ERR_(CONNECT|HEADERS|BODY)_TIMEOUT)\b/i.test(s) || /time(d)? ?out/i.test(s))
    return { key: 'svcerr.timeout' };
  const status = /^(?:HTTP )?([1-5]\d\d)\b/.exec(s)?.[1] ?? /\bHTTP ([1-5]\d\d)\b/.exec(s)?.[1];
  if (status === '401') return { key: 'svcerr.unauthorized', status };
  if (status === '403') return { key: 'svcerr.forbidden', status };
  if (status === '429' || /\brate limit/i.test(s)) return { key: 'svcerr.rateLimited', status: '429' };
  if (status?.startsWith('5')) return { key: 'svcerr.server', status };
  return null;
}

/**
 * The sentence for a technical error in `lang`, or null when its cause is not a common one (show the raw text alone).
 */
export function serviceErrorText(raw: string, lang: Lang): string | null {
  const c = serviceErrorCause(raw);
  return c ? t(lang, c.key, c.status ? { status: c.status } : {}) : null;
}
