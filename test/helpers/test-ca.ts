/**
 * A certificate authority made at run time, and certificates it signs: the private CA of a site,
 * a server certificate for the names a test chooses, an expired one, one for another name, a
 * self-signed one. Keys come from node:crypto (fast), certificates from node-forge.
 */
import crypto from 'node:crypto';
import forge from 'node-forge';

const { pki } = forge;

export type KeyAndCert = { key: string; cert: string };
export type ServerCertOptions = {
  /** DNS names in subjectAltName (and the first as CN). */
  names: string[];
  /** IP addresses in subjectAltName. */
  ips?: string[];
  notBefore?: Date;
  notAfter?: Date;
};
export type TestCa = KeyAndCert & { name: string; issue(o: ServerCertOptions): KeyAndCert };

const DAY = 86_400_000;

function rsaKeys(): { privatePem: string; publicKey: forge.pki.PublicKey; privateKey: forge.pki.rsa.PrivateKey } {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privatePem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const forgeKey = pki.privateKeyFromPem(privatePem) as forge.pki.rsa.PrivateKey;
  return { privatePem, privateKey: forgeKey, publicKey: pki.setRsaPublicKey(forgeKey.n, forgeKey.e) };
}

function serial(): string {
  // 16 bytes, the first in 0x01..0x7f: positive (high bit clear) and minimal in DER. The old '0' +
  // 30 hex digits was an odd-length hex string that forge turns into a leading 0x00 byte: not
  // minimal DER whenever the next byte is below 0x80.
  const bytes = crypto.randomBytes(16);
  bytes[0] = (bytes[0] as number) & 0x7f || 0x01;
  return bytes.toString('hex');
}

function build(
  subjectCn: string,
  publicKey: forge.pki.PublicKey,
  signer: { key: forge.pki.rsa.PrivateKey; subject: forge.pki.CertificateField[] } | null,
  extensions: object[],
  notBefore: Date,
  notAfter: Date,
): forge.pki.Certificate {
  const cert = pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  const subject = [
    { name: 'commonName', value: subjectCn },
    { name: 'organizationName', value: 'timeclock-kiosk tests' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(signer ? signer.subject : subject);
  cert.setExtensions(extensions);
  return cert;
}

function serverExtensions(o: ServerCertOptions): object[] {
  const altNames = [...o.names.map((value) => ({ type: 2, value })), ...(o.ips ?? []).map((ip) => ({ type: 7, ip }))];
  return [
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames },
  ];
}

/** A fresh CA, valid from yesterday for ten years. */
export function makeCa(name = 'Timeclock Test Site CA'): TestCa {
  const keys = rsaKeys();
  const now = Date.now();
  const caCert = build(
    name,
    keys.publicKey,
    null,
    [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ],
    new Date(now - DAY),
    new Date(now + 3650 * DAY),
  );
  caCert.sign(keys.privateKey, forge.md.sha256.create());
  const signer = { key: keys.privateKey, subject: caCert.subject.attributes };
  return {
    name,
    key: keys.privatePem,
    cert: pki.certificateToPem(caCert),
    issue(o) {
      const leaf = rsaKeys();
      const cert = build(
        o.names[0] ?? o.ips?.[0] ?? 'server',
        leaf.publicKey,
        signer,
        serverExtensions(o),
        o.notBefore ?? new Date(now - DAY),
        o.notAfter ?? new Date(now + 365 * DAY),
      );
      cert.sign(signer.key, forge.md.sha256.create());
      return { key: leaf.privatePem, cert: pki.certificateToPem(cert) };
    },
  };
}

/** A server certificate that signs itself (no CA). */
export function selfSigned(o: ServerCertOptions): KeyAndCert {
  const keys = rsaKeys();
  const now = Date.now();
  const cert = build(
    o.names[0] ?? 'server',
    keys.publicKey,
    null,
    serverExtensions(o),
    o.notBefore ?? new Date(now - DAY),
    o.notAfter ?? new Date(now + 365 * DAY),
  );
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { key: keys.privatePem, cert: pki.certificateToPem(cert) };
}

/** Expired yesterday, after a year of validity. */
export const EXPIRED = { notBefore: new Date(Date.now() - 366 * DAY), notAfter: new Date(Date.now() - DAY) };
