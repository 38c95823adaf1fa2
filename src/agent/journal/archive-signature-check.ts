import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withoutSecrets } from '../../config.js';
import type { SignatureCheck } from '../../store/journal/journal-archive-verify.js';

/**
 * An archive seal's detached signature checked by `openssl cms -verify` (as `afd verify` checks an
 * AFD's .p7s; the signer's chain to a CA is not checked here). For the command line's `journal
 * verify`: it blocks while OpenSSL runs, so the agent's background check does not use it.
 * OpenSSL missing: the signature is reported as not checkable, never as valid.
 */
export const opensslSignatureCheck: SignatureCheck = (content, signature) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'timeclock-seal-'));
  try {
    const sealFile = path.join(tmp, 'seal.json');
    const sigFile = path.join(tmp, 'seal.json.p7s');
    fs.writeFileSync(sealFile, content);
    fs.writeFileSync(sigFile, signature);
    const r = spawnSync(
      'openssl',
      [
        'cms',
        '-verify',
        '-binary',
        '-inform',
        'DER',
        '-in',
        sigFile,
        '-content',
        sealFile,
        '-noverify',
        '-out',
        path.join(tmp, 'out'),
      ],
      { encoding: 'utf8', env: withoutSecrets(process.env) },
    );
    if (r.error)
      return `not checked: ${(r.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'openssl is not installed' : r.error.message}`;
    return r.status === 0 ? null : `openssl cms -verify: ${(r.stderr || r.stdout).trim().split('\n')[0]}`;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
};
