/**
 * The detached signature of an exported AFD (Portaria 671: a REP-P's AFD is signed with an
 * ICP-Brasil certificate, CAdES, in a separate .p7s) and of the PDF receipts. The certificate and
 * key come from the employer's PKCS#12 file (`afd.signingKey`, an A1 certificate), read by
 * node-forge (Node cannot); the CMS SignedData is built by PKI.js (agent/exports/cades.ts), signed through
 * WebCrypto, so signing is asynchronous.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type forge from 'node-forge';
import { loadWhenUsed } from '../../sync/window/when-used.js';
import type { ChainHead } from './cades.js';

/** node-forge, loaded when a key is first read (a terminal that signs nothing never loads it). */
const forgeWhenUsed = loadWhenUsed<typeof forge>('node-forge');

export type { ChainHead } from './cades.js';

export type AfdSigner = {
  /** The certificate's subject, for the log and the export's answer (no secrets). */
  subject: string;
  notAfter: Date;
  /** The signer's certificate, for what the export warns about (src/agent/exports/afd-signer-check.ts). */
  certificate: crypto.X509Certificate;
  /** DER of a detached CMS SignedData (CAdES-BES) over `content`, signed at `at`. */
  sign(content: Buffer, at: Date): Promise<Buffer>;
  /**
   * The same from the content's SHA-256, hashed as it was written (a large export need not be read
   * back); `head`: the employer chain's head at export time, a signed attribute (issue 26 item 8).
   */
  signDigest(sha256: Buffer, at: Date, head?: ChainHead): Promise<Buffer>;
};

export class SigningKeyError extends Error {}

/** Reads the PKCS#12 file; a wrong passphrase, a file without a key or an expired certificate is a SigningKeyError. */
export function loadAfdSigner(file: string, password: string | undefined, now: Date): AfdSigner {
  const node = forgeWhenUsed();
  const { asn1, pki } = node;
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    const bytes = fs.readFileSync(file);
    p12 = node.pkcs12.pkcs12FromAsn1(asn1.fromDer(bytes.toString('binary')), false, password ?? '');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new SigningKeyError(
      code
        ? `afd.signingKey ${file}: cannot be read (${code})`
        : `afd.signingKey ${file}: not a PKCS#12 file this passphrase opens (${(e as Error).message})`,
    );
  }
  const keyBag = [
    ...(p12.getBags({ bagType: pki.oids.pkcs8ShroudedKeyBag })[pki.oids.pkcs8ShroudedKeyBag] ?? []),
    ...(p12.getBags({ bagType: pki.oids.keyBag })[pki.oids.keyBag] ?? []),
  ][0];
  if (!keyBag?.key && !keyBag?.asn1) throw new SigningKeyError(`afd.signingKey ${file}: holds no private key`);
  // forge parses RSA keys and certificates only; an EC one stays ASN.1 (bag.asn1), read by Node.
  const keyPem = keyBag.key ? pki.privateKeyToPem(keyBag.key) : pki.privateKeyInfoToPem(keyBag.asn1 as forge.asn1.Asn1);
  const privateKey = crypto.createPrivateKey(keyPem);
  const certDers = (p12.getBags({ bagType: pki.oids.certBag })[pki.oids.certBag] ?? []).flatMap((b) => {
    const a = b.cert ? pki.certificateToAsn1(b.cert) : b.asn1;
    return a ? [Buffer.from(asn1.toDer(a).getBytes(), 'binary')] : [];
  });
  // The signer's certificate is the one whose public key is the key's; the rest is its chain.
  const certDer = certDers.find((d) => new crypto.X509Certificate(d).checkPrivateKey(privateKey));
  if (!certDer) throw new SigningKeyError(`afd.signingKey ${file}: no certificate for its private key`);
  const x509 = new crypto.X509Certificate(certDer);
  const notAfter = new Date(x509.validTo);
  if (notAfter < now)
    throw new SigningKeyError(
      `afd.signingKey ${file}: the certificate expired on ${notAfter.toISOString().slice(0, 10)}`,
    );
  if (privateKey.asymmetricKeyType !== 'ec' && privateKey.asymmetricKeyType !== 'rsa')
    throw new SigningKeyError(`afd.signingKey ${file}: a ${privateKey.asymmetricKeyType} key; RSA or EC expected`);
  const subject = x509.subject.split('\n').join(', ');
  // The key as WebCrypto takes it, imported once at the first signature.
  let key: Promise<crypto.webcrypto.CryptoKey> | null = null;
  const signer: AfdSigner = {
    subject,
    notAfter,
    certificate: x509,
    sign: (content, at) => signer.signDigest(crypto.createHash('sha256').update(content).digest(), at),
    async signDigest(digest, at, head) {
      if (digest.length !== 32) throw new RangeError('a SHA-256 digest is 32 bytes');
      // PKI.js loaded at the first signature, not with the agent (about 20 MiB of RSS and 80 ms at load, measured).
      const cades = await import('./cades.js');
      key ??= cades.cadesKey(privateKey);
      return cades.cadesDetached({ certificate: certDer, key: await key, digest, at, ...(head ? { head } : {}) });
    },
  };
  return signer;
}
