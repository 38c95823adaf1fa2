/** Service errors worded for a site manager: the common technical causes, in the screen's language. */
import { describe, expect, it } from 'vitest';
import { serviceErrorCause, serviceErrorText } from '../src/service-error.js';

describe('service errors in the screen’s language', () => {
  it('maps the common technical causes', () => {
    const cases: Array<[string, string | null]> = [
      ['connect ECONNREFUSED 127.0.0.1:9', 'svcerr.refused'],
      ['getaddrinfo ENOTFOUND api.example.com', 'svcerr.dns'],
      ['getaddrinfo EAI_AGAIN api.example.com', 'svcerr.dns'],
      ['connect ETIMEDOUT 10.0.0.1:443', 'svcerr.timeout'],
      ['request timed out after 10000 ms', 'svcerr.timeout'],
      ['UND_ERR_HEADERS_TIMEOUT', 'svcerr.timeout'],
      ['read ECONNRESET', 'svcerr.reset'],
      ['socket hang up', 'svcerr.reset'],
      ['unable to verify the first certificate (UNABLE_TO_VERIFY_LEAF_SIGNATURE)', 'svcerr.certificate'],
      ['ERR_TLS_CERT_ALTNAME_INVALID: Hostname/IP does not match', 'svcerr.certificate'],
      ['CERT_HAS_EXPIRED', 'svcerr.certificate'],
      ['503 Service Unavailable', 'svcerr.server'],
      ['HTTP 500', 'svcerr.server'],
      ['401 Please provide proper credentials', 'svcerr.unauthorized'],
      ['403 employee does not allow external API records', 'svcerr.forbidden'],
      ['429 rate limited', 'svcerr.rateLimited'],
      ['422 time: invalid format', null],
      ['', null],
      ['something else entirely', null],
    ];
    for (const [raw, key] of cases) expect(serviceErrorCause(raw)?.key ?? null, raw).toBe(key);
  });

  it('says it in each language, with the HTTP status where the sentence names it', () => {
    expect(serviceErrorText('connect ECONNREFUSED 127.0.0.1:9', 'pt-BR')).toMatch(/recusou a conexão/);
    expect(serviceErrorText('connect ECONNREFUSED 127.0.0.1:9', 'es')).toMatch(/rechazó la conexión/);
    expect(serviceErrorText('connect ECONNREFUSED 127.0.0.1:9', 'en')).toMatch(/refused the connection/);
    expect(serviceErrorText('502 Bad Gateway', 'pt-BR')).toContain('HTTP 502');
    expect(serviceErrorText('422 bad time', 'en')).toBeNull();
  });
});
