/**
 * What the AFD export and `afd verify` say of a signing certificate: self-signed, issued by a CA
 * that is not ICP-Brasil's, or issued under ICP-Brasil (nothing said). Real certificates made by
 * OpenSSL and by the test CA.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signerConcerns } from '../../src/agent/exports/afd-signer-check.js';
import { makeCa, selfSigned } from '../helpers/test-ca.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('timeclock-signer-check-');
afterAll(() => tmp.cleanup());

const x509 = (pem: string) => new crypto.X509Certificate(pem);

describe('signerConcerns', () => {
  it('names a self-signed certificate', () => {
    const c = selfSigned({ names: ['signer.test'] });
    expect(signerConcerns(x509(c.cert))).toEqual([
      expect.stringMatching(
        /^the signing certificate \(CN=signer\.test.*\) is self-signed: no authority vouches for it$/,
      ),
    ]);
  });

  it('names a certificate from a CA that is not ICP-Brasil, with its issuer', () => {
    const c = makeCa('Some Private CA').issue({ names: ['signer.test'] });
    expect(signerConcerns(x509(c.cert))).toEqual([
      expect.stringMatching(/is not issued by an ICP-Brasil authority \(issuer CN=Some Private CA/),
    ]);
  });

  it('says nothing of a certificate issued by a CA whose name carries O=ICP-Brasil', () => {
    const run = (...args: string[]) => execFileSync('openssl', args, { cwd: tmp.dir, stdio: 'ignore' });
    run(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '30',
      '-subj',
      '/C=BR/O=ICP-Brasil/OU=Teste/CN=AC TESTE',
    );
    run(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'leaf.key',
      '-out',
      'leaf.csr',
      '-subj',
      '/C=BR/O=ICP-Brasil/CN=RELOJOARIA SAO JOAO LTDA:11222333000181',
    );
    run(
      'x509',
      '-req',
      '-in',
      'leaf.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'leaf.pem',
      '-days',
      '30',
    );
    expect(signerConcerns(x509(fs.readFileSync(path.join(tmp.dir, 'leaf.pem'), 'utf8')))).toEqual([]);
    // The CA's own certificate is self-signed even though it names ICP-Brasil.
    expect(signerConcerns(x509(fs.readFileSync(path.join(tmp.dir, 'ca.pem'), 'utf8')))).toHaveLength(1);
  });
});
