/**
 * The AFD's detached signature against the real OpenSSL: an A1-style PKCS#12 made by `openssl
 * pkcs12` (OpenSSL 3's defaults: AES-256, PBKDF2), a .p7s written by the terminal, and `openssl
 * cms -verify` as an auditor would run it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAfdSigner, SigningKeyError } from '../../src/agent/exports/afd-signature.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir();
const file = (name: string) => path.join(tmp.dir, name);

/** A self-signed certificate and its key in a PKCS#12 file, valid for 30 days from now. */
function makeP12(name: string, password: string, opts: { ec?: boolean } = {}): string {
  const key = file(`${name}.key`);
  const cert = file(`${name}.pem`);
  const algo = opts.ec ? ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'] : ['-newkey', 'rsa:2048'];
  const subj = '/C=BR/O=Obra Exemplo LTDA/CN=OBRA EXEMPLO LTDA:12345678000195';
  execFileSync(
    'openssl',
    ['req', '-x509', ...algo, '-nodes', '-keyout', key, '-out', cert, '-days', '30', '-subj', subj],
    { stdio: 'ignore' },
  );
  const p12 = file(`${name}.p12`);
  execFileSync(
    'openssl',
    ['pkcs12', '-export', '-inkey', key, '-in', cert, '-out', p12, '-passout', `pass:${password}`],
    { stdio: 'ignore' },
  );
  return p12;
}

function opensslVerify(p7s: string, content: string, ca: string): { ok: boolean; out: string } {
  const r = spawnSync(
    'openssl',
    [
      'cms',
      '-verify',
      '-binary',
      '-inform',
      'DER',
      '-in',
      p7s,
      '-content',
      content,
      '-CAfile',
      ca,
      '-purpose',
      'any',
      '-out',
      '/dev/null',
    ],
    { encoding: 'utf8' },
  );
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}` };
}

const AFD = Buffer.from('000000000113456780001950000000000000000OBRA EXEMPLO LTDA\r\n999999999000000000\r\n', 'latin1');
let rsa: string;

beforeAll(() => {
  rsa = makeP12('rsa', 'segredo');
});
afterAll(() => tmp.cleanup());

describe('a signed AFD', () => {
  it('is a detached CMS signature OpenSSL verifies with the certificate, CAdES-BES (signing-certificate-v2 present)', async () => {
    const signer = loadAfdSigner(rsa, 'segredo', new Date());
    expect(signer.subject).toContain('O=Obra Exemplo LTDA');
    fs.writeFileSync(file('AFD.txt'), AFD);
    fs.writeFileSync(file('AFD.p7s'), await signer.sign(AFD, new Date()));
    const v = opensslVerify(file('AFD.p7s'), file('AFD.txt'), file('rsa.pem'));
    expect(v.out).toContain('Verification successful');
    expect(v.ok).toBe(true);
    const printed = execFileSync('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', file('AFD.p7s')], {
      encoding: 'utf8',
    });
    expect(printed).toContain('signingCertificateV2');
    expect(printed).toContain('signingTime');
    // Detached: the file's text is not inside the signature.
    expect(fs.readFileSync(file('AFD.p7s')).includes(Buffer.from('OBRA EXEMPLO LTDA\r\n'))).toBe(false);
  });

  it("carries its signed attributes as OpenSSL prints them: the signing time given, the file's digest, signing-certificate-v2 naming the certificate, the chain head when given", async () => {
    const signer = loadAfdSigner(rsa, 'segredo', new Date());
    const at = new Date('2026-03-14T10:58:32Z');
    const head = {
      journalId: '0123456789abcdef0123456789abcdef',
      employerId: '12345678000195',
      nsr: 1_107,
      hash: 'ab'.repeat(32),
    };
    fs.writeFileSync(
      file('AFD4.p7s'),
      await signer.signDigest(crypto.createHash('sha256').update(AFD).digest(), at, head),
    );
    fs.writeFileSync(file('AFD4.txt'), AFD);
    expect(opensslVerify(file('AFD4.p7s'), file('AFD4.txt'), file('rsa.pem')).ok).toBe(true);
    const printed = execFileSync('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', file('AFD4.p7s')], {
      encoding: 'utf8',
    });
    const attrs = printed.slice(printed.indexOf('signedAttrs:'), printed.indexOf('unsignedAttrs:'));
    expect(attrs).toMatch(/contentType \(1\.2\.840\.113549\.1\.9\.3\)\s+set:\s+OBJECT:pkcs7-data/);
    expect(attrs).toMatch(/signingTime \(1\.2\.840\.113549\.1\.9\.5\)\s+set:\s+UTCTIME:Mar 14 10:58:32 2026 GMT/);
    // The message digest is the file's SHA-256 (OpenSSL prints it as a hex dump).
    const digest = crypto.createHash('sha256').update(AFD).digest('hex');
    const dumped = /messageDigest[\s\S]*?OCTET STRING:\s+([\s\S]*?)\n\n/.exec(attrs)?.[1] ?? '';
    expect([...dumped.matchAll(/- ((?:[0-9a-f]{2}[ -]?)+)/g)].map((m) => m[1]?.replace(/[ -]/g, '')).join('')).toBe(
      digest,
    );
    // ESSCertIDv2: the certificate's SHA-256 and its serial number.
    const cert = new crypto.X509Certificate(fs.readFileSync(file('rsa.pem')));
    expect(attrs).toContain('signingCertificateV2');
    expect(attrs).toContain(`[HEX DUMP]:${crypto.createHash('sha256').update(cert.raw).digest('hex').toUpperCase()}`);
    expect(attrs).toMatch(new RegExp(`INTEGER\\s+:0*${cert.serialNumber.replace(/^0+/, '')}`, 'i'));
    expect(attrs).toContain(
      `UTF8STRING:journal=${head.journalId};employer=12345678000195;nsr=1107;sha256=${head.hash}`,
    );
    // Without a head (a receipt), no such attribute.
    fs.writeFileSync(file('AFD5.p7s'), await signer.sign(AFD, at));
    expect(
      execFileSync('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', file('AFD5.p7s')], {
        encoding: 'utf8',
      }),
    ).not.toContain('2.25.');
  });

  it('fails verification when one byte of the file changes after signing', async () => {
    const signer = loadAfdSigner(rsa, 'segredo', new Date());
    fs.writeFileSync(file('AFD2.p7s'), await signer.sign(AFD, new Date()));
    const changed = Buffer.from(AFD);
    changed[20] = 0x39;
    fs.writeFileSync(file('AFD2.txt'), changed);
    expect(opensslVerify(file('AFD2.p7s'), file('AFD2.txt'), file('rsa.pem')).ok).toBe(false);
  });

  it('signs with an EC key as well', async () => {
    const ec = makeP12('ec', 'outro', { ec: true });
    fs.writeFileSync(file('AFD3.txt'), AFD);
    fs.writeFileSync(file('AFD3.p7s'), await loadAfdSigner(ec, 'outro', new Date()).sign(AFD, new Date()));
    expect(opensslVerify(file('AFD3.p7s'), file('AFD3.txt'), file('ec.pem')).ok).toBe(true);
  });
});

describe('a signing key that cannot sign', () => {
  it('names the problem: wrong passphrase, missing file, expired certificate; the passphrase never appears', () => {
    const wrong = () => loadAfdSigner(rsa, 'errada-123', new Date());
    expect(wrong).toThrow(SigningKeyError);
    expect(wrong).toThrow(/not a PKCS#12 file this passphrase opens/);
    try {
      wrong();
    } catch (e) {
      expect((e as Error).message).not.toContain('errada-123');
    }
    expect(() => loadAfdSigner(file('none.p12'), 'x', new Date())).toThrow(/cannot be read \(ENOENT\)/);
    // The clock is the caller's: 40 days on, the 30-day certificate has expired.
    const later = new Date(Date.now() + 40 * 86_400_000);
    const ends = new Date(new crypto.X509Certificate(fs.readFileSync(file('rsa.pem'))).validTo)
      .toISOString()
      .slice(0, 10);
    expect(() => loadAfdSigner(rsa, 'segredo', later)).toThrow(`the certificate expired on ${ends}`);
  });
});
