/**
 * Which certificate authorities the terminal trusts for the API (and an https:// proxy): Node's
 * default list (its bundled roots, plus NODE_EXTRA_CA_CERTS and the system store when Node was
 * told to use them) and, when `api.caFile` is set, the certificates in that PEM file.
 *
 * A CA file that cannot be read or holds no certificate is a configuration error at start (and in
 * the doctor), never a crash at the first request.
 */
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import tls from 'node:tls';

export type CaCert = { pem: string; subject: string; validTo: number; validFrom: number };
export type CaReading = { ok: true; certs: CaCert[] } | { ok: false; problem: string };

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The common name of a distinguished name (`CN=…`), else the whole of it on one line. */
function commonName(dn: string): string {
  const cn = /(?:^|\n)CN=([^\n]*)/.exec(dn);
  return (cn?.[1] ?? dn.replace(/\n/g, ', ')).trim();
}

/** Reads a PEM file of one or more certificates; the problem says what is wrong in words an installer can act on. */
export function readCaFile(file: string): CaReading {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, problem: `${file} cannot be read (${code ?? (e as Error).message})` };
  }
  const blocks = text.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0)
    return {
      ok: false,
      problem: `${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----); a DER file converts with openssl x509 -inform der -in FILE -out FILE.pem`,
    };
  const certs: CaCert[] = [];
  for (const [i, pem] of blocks.entries()) {
    try {
      const c = new X509Certificate(pem);
      certs.push({
        pem,
        subject: commonName(c.subject),
        validFrom: Date.parse(c.validFrom),
        validTo: Date.parse(c.validTo),
      });
    } catch (e) {
      return {
        ok: false,
        problem: `${file}: certificate ${i + 1} of ${blocks.length} cannot be parsed (${(e as Error).message})`,
      };
    }
  }
  return { ok: true, certs };
}

type CaSource = 'default' | 'system' | 'bundled' | 'extra';
const getCACertificates = (tls as unknown as { getCACertificates?: (type?: CaSource) => string[] }).getCACertificates;

/**
 * Node's own list, as a connection without a `ca` option would use: passing `ca` replaces that
 * list, so it is given whole, with NODE_EXTRA_CA_CERTS (read here on a Node without
 * tls.getCACertificates, which has it since 22.15).
 */
export function defaultCas(env: NodeJS.ProcessEnv = process.env): string[] {
  if (getCACertificates) return getCACertificates('default');
  const extra = env.NODE_EXTRA_CA_CERTS ? readCaFile(env.NODE_EXTRA_CA_CERTS) : null;
  return [...tls.rootCertificates, ...(extra?.ok ? extra.certs.map((c) => c.pem) : [])];
}

/** The `ca` option for connections to the API: null (Node's default) without a CA file. */
export function trustedCas(extra: readonly CaCert[] | null): string[] | null {
  if (!extra || extra.length === 0) return null;
  return [...defaultCas(), ...extra.map((c) => c.pem)];
}
