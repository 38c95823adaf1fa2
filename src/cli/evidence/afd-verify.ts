/**
 * `timeclock afd verify FILE [--allow-unsigned] [--strict]`: checks an AFD (ours or another REP's)
 * with src/domain/afd/verify.ts, and its detached signature FILE.p7s with OpenSSL (Node cannot
 * verify CMS). A file is called valid only when it is whole: its layout, CRCs and chain check AND
 * its signature is there and matches. A file without a signature line, one that says it is unsigned,
 * one that claims a .p7s that is not beside it, or one whose signature could not be checked is NOT
 * valid unless the caller says `--allow-unsigned` (then it is a warning); a .p7s that does not match
 * is never valid (the file or its signature was changed). A self-signed or non-ICP-Brasil signer is a
 * warning, an error with `--strict`. Exit 0 valid, 1 not valid or unreadable, 2 usage.
 */
import { spawnSync } from 'node:child_process';
import { withoutSecrets } from '../../config.js';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signerConcerns } from '../../agent/exports/afd-signer-check.js';
import { verifyAfdText } from '../../agent/journal/journal-snapshot.js';
import { terminalOfAfdFileName } from '../../domain/afd/export.js';
import { parseHeader } from '../../domain/afd/header.js';
import { marksWithoutCpf } from '../../domain/afd/no-cpf.js';
import { Exit } from '../common/options.js';
import { signedChainHead } from './afd-verify-head.js';

export type AfdVerifyOptions = { allowUnsigned: boolean; strict: boolean };

type SignatureCheck =
  | { state: 'matches'; text: string; signer: crypto.X509Certificate | null }
  | { state: 'mismatch'; text: string }
  /** No signature that could be checked: absent, declared absent, or not checkable here. */
  | { state: 'unsigned'; text: string };

export async function runAfdVerify(
  file: string,
  opts: AfdVerifyOptions = { allowUnsigned: false, strict: false },
): Promise<number> {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    process.stderr.write(
      `timeclock: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`,
    );
    return Exit.error;
  }
  const text = bytes.toString('latin1');
  const v = verifyAfdText(text);
  const out: string[] = [];
  const warnings = [...v.warnings];
  const errors: string[] = [];
  const header = parseHeader(text.split('\r\n', 1)[0] ?? '');
  if (header.ok) {
    const h = header.header;
    out.push(
      `employer ${h.employer.kind.toUpperCase()} ${h.employer.id}, ${h.firstDate} to ${h.lastDate}, layout ${h.layoutVersion}`,
    );
    if (h.developer === null || /^0+$/.test(h.developer.id))
      warnings.push("the header's developer id is zeros: the REP-P's developer is not named");
  }
  const terminal = terminalOfAfdFileName(path.basename(file));
  if (terminal) out.push(`terminal ${terminal} (from the file's name): the NSRs are that terminal's own sequence`);
  const chain =
    v.chain === null
      ? 'no type 7 records'
      : v.chain.kind === 'from-start'
        ? 'hash chain checked from its start'
        : `hash chain anchored at line ${v.chain.line} (NSR ${v.chain.nsr})`;
  out.push(
    v.ok
      ? `valid: ${v.lines} lines, ${v.counts[7]} marks (type 7); ${chain}`
      : `INVALID: line ${v.firstProblem?.line}: ${v.firstProblem?.message}`,
  );

  for (const nsr of marksWithoutCpf(text))
    warnings.push(
      `NSR ${String(nsr).padStart(9, '0')} has no CPF (twelve zeros): whose punch it is cannot be read from this file`,
    );
  const sig = checkSignature(file, v.signature);
  if (sig.state === 'mismatch') errors.push('the signature does not match the file');
  if (sig.state === 'unsigned') {
    const why = `no signature checked (${sig.text})`;
    if (opts.allowUnsigned) warnings.push(`${why}; accepted because of --allow-unsigned`);
    else errors.push(`${why}: a file is valid only signed (--allow-unsigned accepts it)`);
  }
  if (sig.state === 'matches' && sig.signer) {
    for (const c of signerConcerns(sig.signer))
      (opts.strict ? errors : warnings).push(opts.strict ? `${c} (--strict)` : c);
  }
  // The employer chain's head signed into the .p7s at export time (issue 26 item 8).
  const head =
    sig.state === 'matches'
      ? await signedChainHead(`${file}.p7s`, text, header.ok ? header.header.employer.id : null)
      : null;
  if (head && !head.ok) errors.push(`the chain head signed with the file does not agree with it: ${head.text}`);
  for (const w of warnings) out.push(`warning: ${w}`);
  out.push(`signature: ${sig.text}`);
  if (head) out.push(`chain head at export: ${head.text}`);
  for (const e of errors) out.push(`error: ${e}`);
  const valid = v.ok && errors.length === 0;
  out.push(valid ? 'result: valid' : `result: NOT valid (${v.ok ? errors[0] : 'the layout or the chain is broken'})`);
  process.stdout.write(`${file}\n${out.map((l) => `  ${l}\n`).join('')}`);
  return valid ? Exit.ok : Exit.error;
}

/** FILE.p7s checked by `openssl cms -verify`, with the signer's certificate OpenSSL writes out. */
function checkSignature(file: string, says: ReturnType<typeof verifyAfdText>['signature']): SignatureCheck {
  const p7s = `${file}.p7s`;
  if (!fs.existsSync(p7s)) {
    if (says === 'p7s') return { state: 'unsigned', text: `the file says it is signed, but ${p7s} is not beside it` };
    if (says === 'unsigned') return { state: 'unsigned', text: 'none: the file says it is not signed' };
    if (says === 'absent') return { state: 'unsigned', text: 'none: the file has no signature line after its trailer' };
    return { state: 'unsigned', text: `the signature line is not ours and no ${p7s} is beside the file: not checked` };
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'timeclock-afd-'));
  try {
    const signerPem = path.join(tmp, 'signer.pem');
    // -noverify: the signer's certificate is not checked against a CA (the ICP-Brasil roots are not on this machine);
    // signerConcerns says what can be seen.
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
        file,
        '-noverify',
        '-signer',
        signerPem,
        '-out',
        path.join(tmp, 'out'),
      ],
      { encoding: 'utf8', env: withoutSecrets(process.env) },
    );
    if (r.error)
      return {
        state: 'unsigned',
        text: `${p7s} not checked: ${(r.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'openssl is not installed' : r.error.message}`,
      };
    if (r.status !== 0)
      return {
        state: 'mismatch',
        text: `${p7s} does NOT match this file (openssl cms -verify: ${(r.stderr || r.stdout).trim().split('\n')[0]})`,
      };
    let signer: crypto.X509Certificate | null = null;
    try {
      signer = new crypto.X509Certificate(fs.readFileSync(signerPem));
    } catch {
      // the signature checked; who signed is only known when OpenSSL wrote the certificate out
    }
    const by = signer ? ` by ${signer.subject.split('\n').join(', ')}` : '';
    return {
      state: 'matches',
      signer,
      text: `${p7s} matches this file (signed${by}); checked by openssl cms -verify, the certificate's chain to a CA not checked`,
    };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
