/**
 * The detached signature of an exported AFD (Portaria 671: a REP-P's AFD is signed with an
 * ICP-Brasil certificate, CAdES, in a separate .p7s). The certificate and key come from the
 * employer's PKCS#12 file (`afd.signingKey`, an A1 certificate). node-forge reads the PKCS#12 (Node
 * cannot); the CMS structure is written here with its ASN.1 encoder because node-forge's own
 * PKCS#7 signer cannot add the signing-certificate-v2 attribute that makes a CMS signature CAdES-BES
 * (RFC 5126: it binds the certificate to the signature); node:crypto signs.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import forge from 'node-forge';

const { asn1, pki } = forge;
const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const;

export type AfdSigner = {
  /** The certificate's subject, for the log and the export's answer (no secrets). */
  subject: string;
  notAfter: Date;
  /** The signer's certificate, for what the export warns about (src/agent/afd-signer-check.ts). */
  certificate: crypto.X509Certificate;
  /** DER of a detached CMS SignedData over `content`, signed at `at`. */
  sign(content: Buffer, at: Date): Buffer;
  /** The same from the content's SHA-256, hashed as it was written (a large export need not be read back). */
  signDigest(sha256: Buffer, at: Date): Buffer;
};

export class SigningKeyError extends Error {}

const seq = (items: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);
const set = (items: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, items);
const oid = (o: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(o).getBytes());
const int = (n: number) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(n).getBytes());
const octets = (b: Buffer) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, b.toString('binary'));
const der = (a: forge.asn1.Asn1) => Buffer.from(asn1.toDer(a).getBytes(), 'binary');
const attribute = (type: string, value: forge.asn1.Asn1) => seq([oid(type), set([value])]);

/** DER's SET OF is sorted by the elements' encodings (X.690 11.6); forge writes them as given. */
function sortedSet(items: forge.asn1.Asn1[], tagClass = asn1.Class.UNIVERSAL, tag: number = asn1.Type.SET): forge.asn1.Asn1 {
  const sorted = [...items].sort((a, b) => Buffer.compare(der(a), der(b)));
  return asn1.create(tagClass, tag, true, sorted);
}

function utcTime(at: Date): forge.asn1.Asn1 {
  // UTCTime for 1950-2049, GeneralizedTime after (RFC 5652 11.3).
  return at.getUTCFullYear() < 2050
    ? asn1.create(asn1.Class.UNIVERSAL, asn1.Type.UTCTIME, false, asn1.dateToUtcTime(at))
    : asn1.create(asn1.Class.UNIVERSAL, asn1.Type.GENERALIZEDTIME, false, asn1.dateToGeneralizedTime(at));
}

/** Reads the PKCS#12 file; a wrong passphrase, a file without a key or an expired certificate is a SigningKeyError. */
export function loadAfdSigner(file: string, password: string | undefined, now: Date): AfdSigner {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    const bytes = fs.readFileSync(file);
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1.fromDer(bytes.toString('binary')), false, password ?? '');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new SigningKeyError(
      code ? `afd.signingKey ${file}: cannot be read (${code})` : `afd.signingKey ${file}: not a PKCS#12 file this passphrase opens (${(e as Error).message})`,
    );
  }
  const keyBag = [...(p12.getBags({ bagType: pki.oids.pkcs8ShroudedKeyBag })[pki.oids.pkcs8ShroudedKeyBag] ?? []), ...(p12.getBags({ bagType: pki.oids.keyBag })[pki.oids.keyBag] ?? [])][0];
  if (!keyBag?.key && !keyBag?.asn1) throw new SigningKeyError(`afd.signingKey ${file}: holds no private key`);
  // forge parses RSA keys and certificates only; an EC one stays ASN.1 (bag.asn1), read by Node.
  const keyPem = keyBag.key ? pki.privateKeyToPem(keyBag.key) : pki.privateKeyInfoToPem(keyBag.asn1 as forge.asn1.Asn1);
  const privateKey = crypto.createPrivateKey(keyPem);
  const certDers = (p12.getBags({ bagType: pki.oids.certBag })[pki.oids.certBag] ?? []).flatMap((b) => {
    const a = b.cert ? pki.certificateToAsn1(b.cert) : b.asn1;
    return a ? [der(a)] : [];
  });
  // The signer's certificate is the one whose public key is the key's; the rest is its chain.
  const certDer = certDers.find((d) => new crypto.X509Certificate(d).checkPrivateKey(privateKey));
  if (!certDer) throw new SigningKeyError(`afd.signingKey ${file}: no certificate for its private key`);
  const x509 = new crypto.X509Certificate(certDer);
  const notAfter = new Date(x509.validTo);
  if (notAfter < now) throw new SigningKeyError(`afd.signingKey ${file}: the certificate expired on ${notAfter.toISOString().slice(0, 10)}`);
  const ec = privateKey.asymmetricKeyType === 'ec';
  if (!ec && privateKey.asymmetricKeyType !== 'rsa') throw new SigningKeyError(`afd.signingKey ${file}: a ${privateKey.asymmetricKeyType} key; RSA or EC expected`);
  const subject = x509.subject.split('\n').join(', ');
  // TBSCertificate: [0] version (absent in v1), serialNumber, signature, issuer, ...
  const certAsn1 = asn1.fromDer(certDer.toString('binary'));
  const tbs = (certAsn1.value as forge.asn1.Asn1[])[0]?.value as forge.asn1.Asn1[];
  const at = tbs[0]?.tagClass === asn1.Class.CONTEXT_SPECIFIC ? 1 : 0;
  const serial = tbs[at] as forge.asn1.Asn1;
  const issuer = tbs[at + 2] as forge.asn1.Asn1;

  const signer: AfdSigner = {
    subject,
    notAfter,
    certificate: x509,
    sign: (content, at) => signer.signDigest(crypto.createHash('sha256').update(content).digest(), at),
    signDigest(digest, at) {
      if (digest.length !== 32) throw new RangeError('a SHA-256 digest is 32 bytes');
      const issuerAndSerial = seq([issuer, serial]);
      const sha256 = seq([oid(OID.sha256)]);
      const attrs = [
        attribute(OID.contentType, oid(OID.data)),
        attribute(OID.signingTime, utcTime(at)),
        attribute(OID.messageDigest, octets(digest)),
        // ESSCertIDv2 with the default hash (SHA-256, so no algorithm field) and the issuer-serial.
        attribute(
          OID.signingCertificateV2,
          seq([seq([seq([octets(crypto.createHash('sha256').update(certDer).digest()), seq([seq([asn1.create(asn1.Class.CONTEXT_SPECIFIC, 4, true, [issuer])]), serial])])])]),
        ),
      ];
      // What is signed is the attributes' DER as a SET; in the SignerInfo they are [0] IMPLICIT.
      const signature = crypto.sign('sha256', der(sortedSet(attrs)), privateKey);
      const signerInfo = seq([
        int(1),
        issuerAndSerial,
        sha256,
        sortedSet(attrs, asn1.Class.CONTEXT_SPECIFIC, 0),
        ec ? seq([oid(OID.ecdsaWithSha256)]) : seq([oid(OID.rsaEncryption), asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, '')]),
        octets(signature),
      ]);
      const signedData = seq([
        int(1),
        set([sha256]),
        seq([oid(OID.data)]), // detached: no eContent
        asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [certAsn1]),
        set([signerInfo]),
      ]);
      return der(seq([oid(OID.signedData), asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [signedData])]));
    },
  };
  return signer;
}
