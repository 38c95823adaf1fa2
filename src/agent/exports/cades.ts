/**
 * A detached CAdES-BES signature (RFC 5126; CMS SignedData, RFC 5652) built with PKI.js: the
 * content type, signing time, message digest and signing-certificate-v2 signed attributes (the last
 * binds the certificate to the signature), and, for an AFD export, the employer chain's head at
 * export time (issue 26 item 8). PKI.js signs through WebCrypto (Node's), so this is asynchronous.
 * Also reads the chain head back out of a .p7s (`timeclock afd verify`).
 */
import crypto, { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { chainHeadText, parseChainHead, type ChainHead } from '../../domain/afd/chain-head.js';

export type { ChainHead } from '../../domain/afd/chain-head.js';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
} as const;

/**
 * Our attribute's type: a UUID-based OID (ITU-T X.667, arc 2.25), which needs no registration.
 * Its value is one UTF8String an inspector reads in `openssl cms -cmsout -print`:
 * `journal=<32 hex>;employer=<CNPJ/CPF or "">;nsr=<NSR>;sha256=<64 hex>`.
 */
export const CHAIN_HEAD_OID = '2.25.243251970244115435620407249902463124322';
/** The same as asn1js names it when it reads it back (an arc beyond 2^53 is written in hex there). */
const CHAIN_HEAD_TYPE = new asn1js.ObjectIdentifier({ value: CHAIN_HEAD_OID }).getValue();

// PKI.js types its engine's `crypto` as the DOM's Crypto, which this Node project's lib does not
// declare; Node's WebCrypto is that interface.
const engine = new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as never });

const CURVES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

/** The private key as WebCrypto signs with it (SHA-256; RSA PKCS#1 v1.5 or ECDSA). */
export function cadesKey(key: crypto.KeyObject): Promise<webcrypto.CryptoKey> {
  const pkcs8 = key.export({ format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType === 'ec') {
    const curve = CURVES[key.asymmetricKeyDetails?.namedCurve ?? ''];
    if (!curve)
      throw new RangeError(
        `an EC key on ${key.asymmetricKeyDetails?.namedCurve ?? 'an unknown curve'}; P-256, P-384 or P-521 expected`,
      );
    return webcrypto.subtle.importKey('pkcs8', pkcs8, { name: 'ECDSA', namedCurve: curve }, false, [
      'sign',
    ]) as Promise<webcrypto.CryptoKey>;
  }
  return webcrypto.subtle.importKey('pkcs8', pkcs8, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, [
    'sign',
  ]) as Promise<webcrypto.CryptoKey>;
}

const bytes = (b: Buffer): ArrayBuffer => new Uint8Array(b).buffer;
const attribute = (type: string, value: asn1js.AsnType) => new pkijs.Attribute({ type, values: [value] });

export type CadesInput = { certificate: Buffer; key: webcrypto.CryptoKey; digest: Buffer; at: Date; head?: ChainHead };

/** DER of the detached SignedData over the content whose SHA-256 is `digest`. */
export async function cadesDetached(i: CadesInput): Promise<Buffer> {
  const cert = pkijs.Certificate.fromBER(bytes(i.certificate));
  const essCertIdV2 = new asn1js.Sequence({
    value: [
      // hashAlgorithm absent: the default, SHA-256.
      new asn1js.OctetString({ valueHex: bytes(crypto.createHash('sha256').update(i.certificate).digest()) }),
      new pkijs.IssuerSerial({
        issuer: new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: cert.issuer })] }),
        serialNumber: cert.serialNumber,
      }).toSchema(),
    ],
  });
  const attrs = [
    attribute(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.data })),
    attribute(
      OID.signingTime,
      new pkijs.Time({
        type: i.at.getUTCFullYear() < 2050 ? pkijs.TimeType.UTCTime : pkijs.TimeType.GeneralizedTime,
        value: i.at,
      }).toSchema(),
    ),
    attribute(OID.messageDigest, new asn1js.OctetString({ valueHex: bytes(i.digest) })),
    attribute(
      OID.signingCertificateV2,
      new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] }),
    ),
    ...(i.head ? [attribute(CHAIN_HEAD_OID, new asn1js.Utf8String({ value: chainHeadText(i.head) }))] : []),
  ];
  // DER's SET OF is in the order of the elements' encodings (X.690 11.6); OpenSSL re-encodes the
  // signed attributes so when it checks the signature, so they are put in that order here.
  const der = (a: pkijs.Attribute) => Buffer.from(a.toSchema().toBER());
  attrs.sort((a, b) => Buffer.compare(der(a), der(b)));
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }), // detached: no eContent
    certificates: [cert],
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: attrs }),
      }),
    ],
  });
  await signedData.sign(i.key, 0, 'SHA-256', undefined, engine);
  const info = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return Buffer.from(info.toSchema().toBER());
}

/** The chain head signed into a .p7s (null: none, or not a CMS SignedData this reads). */
export function chainHeadOf(p7s: Buffer): ChainHead | null {
  try {
    const info = pkijs.ContentInfo.fromBER(bytes(p7s));
    if (info.contentType !== OID.signedData) return null;
    const signed = new pkijs.SignedData({ schema: info.content });
    for (const a of signed.signerInfos[0]?.signedAttrs?.attributes ?? []) {
      if (a.type !== CHAIN_HEAD_TYPE && a.type !== CHAIN_HEAD_OID) continue;
      const v: unknown = a.values[0];
      return v instanceof asn1js.Utf8String ? parseChainHead(v.getValue()) : null;
    }
    return null;
  } catch {
    return null;
  }
}
