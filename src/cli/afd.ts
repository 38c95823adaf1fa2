/**
 * `timeclock afd export --from YYYY-MM-DD --to YYYY-MM-DD [--out DIR|FILE] [--json]`: the journal's
 * marks of those days as an AFD (src/agent/afd-export.ts). Reads the database read-only, so it works
 * beside a running terminal. `--out` a directory (default: the current one) keeps the Annex's file
 * name; any other path is the file's name. An existing file is never replaced.
 *
 * `timeclock afd verify FILE`: checks an AFD (ours or another REP's) with src/domain/afd/verify.ts,
 * and its detached signature FILE.p7s when there is one, with OpenSSL when it is installed (Node
 * cannot verify CMS). Exit 0 valid, 1 invalid or unreadable, 2 usage.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AfdExportError, checkAfdRange } from '../agent/afd-export.js';
import { verifyAfdText } from '../agent/journal-snapshot.js';
import { withoutSecrets } from '../config.js';
import { parseHeader } from '../domain/afd/header.js';
import { marksWithoutCpf } from '../domain/afd/no-cpf.js';
import { openJournalReadOnly } from './journal-db.js';
import { Exit, UsageError, type CliOptions } from './options.js';

export const AFD_USAGE = 'usage: timeclock afd export --from YYYY-MM-DD --to YYYY-MM-DD [--out DIR|FILE] [--json] | timeclock afd verify FILE';

export async function runAfd(opts: CliOptions, args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action === 'export' && rest.length === 0) return runAfdExport(opts);
  if (action === 'verify' && rest.length === 1) return runAfdVerify(rest[0] as string);
  throw new UsageError(AFD_USAGE);
}

/** Where --out points: an existing directory (or one written with a trailing slash) keeps the Annex's name. */
function target(out: string | undefined): { dir: string; fileName?: string } {
  const p = path.resolve(out ?? '.');
  const isDir = (out ?? '').endsWith('/') || (fs.existsSync(p) && fs.statSync(p).isDirectory());
  if (isDir) {
    if (!fs.existsSync(p)) throw new AfdExportError(`no directory ${p}`, 'write_failed', {});
    return { dir: p };
  }
  const dir = path.dirname(p);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new AfdExportError(`no directory ${dir} for ${p}`, 'write_failed', {});
  return { dir, fileName: path.basename(p) };
}

export async function runAfdExport(opts: CliOptions): Promise<number> {
  const { from, to } = opts;
  if (!from || !to) throw new UsageError(`--from and --to are required (${AFD_USAGE})`);
  try {
    checkAfdRange(from, to);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const opened = openJournalReadOnly(opts);
  if (!opened) return Exit.error;
  const { snapshot } = opened;
  try {
    const r = await snapshot.exportAfd({ from, to, ...target(opts.out), now: new Date() });
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(r)}\n`);
      return Exit.ok;
    }
    const nsr = (n: number | null): string => String(n).padStart(9, '0');
    for (const f of [r, ...(r.others ?? [])]) {
      const range = f.firstNsr === null ? 'no marks in these days' : `${f.marks} mark${f.marks === 1 ? '' : 's'}, NSR ${nsr(f.firstNsr)} to ${nsr(f.lastNsr)}`;
      process.stdout.write(`wrote ${f.file}\n  employer ${f.employerId ?? ''}, ${from} to ${to}: ${range}; ${f.bytes} bytes; layout ${f.layoutVersion}\n`);
      process.stdout.write(f.p7s ? `  signed: ${f.p7s} (${f.signer})\n` : '  not signed (afd.signingKey is not set): its last line says ARQUIVO_NAO_ASSINADO\n');
    }
    for (const w of r.warnings ?? []) process.stderr.write(`warning: ${w}\n`);
    return Exit.ok;
  } catch (e) {
    if (!(e instanceof AfdExportError)) throw e;
    process.stderr.write(`timeclock: ${e.message}\n`);
    return e.code === 'bad_range' ? Exit.usage : Exit.error;
  } finally {
    snapshot.close();
  }
}

export function runAfdVerify(file: string): number {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    process.stderr.write(`timeclock: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
    return Exit.error;
  }
  const v = verifyAfdText(bytes.toString('latin1'));
  const out: string[] = [];
  const header = parseHeader(bytes.toString('latin1').split('\r\n', 1)[0] ?? '');
  if (header.ok) {
    const h = header.header;
    out.push(`employer ${h.employer.kind.toUpperCase()} ${h.employer.id}, ${h.firstDate} to ${h.lastDate}, layout ${h.layoutVersion}`);
  }
  const chain = v.chain === null ? 'no type 7 records' : v.chain.kind === 'from-start' ? 'hash chain checked from its start' : `hash chain anchored at line ${v.chain.line} (NSR ${v.chain.nsr})`;
  out.push(v.ok ? `valid: ${v.lines} lines, ${v.counts[7]} marks (type 7); ${chain}` : `INVALID: line ${v.firstProblem?.line}: ${v.firstProblem?.message}`);
  for (const w of v.warnings) out.push(`warning: ${w}`);
  for (const nsr of marksWithoutCpf(bytes.toString('latin1'))) out.push(`warning: NSR ${String(nsr).padStart(9, '0')} has no CPF (twelve zeros): whose punch it is cannot be read from this file`);
  const sig = checkSignature(file, v.signature);
  out.push(`signature: ${sig.text}`);
  process.stdout.write(`${file}\n${out.map((l) => `  ${l}\n`).join('')}`);
  return v.ok && sig.ok ? Exit.ok : Exit.error;
}

/** FILE.p7s checked by `openssl cms -verify` when both exist; ok is false only when the signature is there and does not match. */
function checkSignature(file: string, says: ReturnType<typeof verifyAfdText>['signature']): { ok: boolean; text: string } {
  const p7s = `${file}.p7s`;
  if (!fs.existsSync(p7s)) {
    if (says === 'p7s') return { ok: true, text: `the file says it is signed, but ${p7s} is not beside it: not checked` };
    return { ok: true, text: says === 'unsigned' ? 'none (the file says it is not signed)' : 'no .p7s beside the file: not checked' };
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'timeclock-afd-'));
  try {
    const signer = path.join(tmp, 'signer.pem');
    // -noverify: the signer's certificate is not checked against a CA (the ICP-Brasil roots are not on this machine).
    const r = spawnSync('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', p7s, '-content', file, '-noverify', '-signer', signer, '-out', path.join(tmp, 'out')], { encoding: 'utf8', env: withoutSecrets(process.env) });
    if (r.error) return { ok: true, text: `not checked (${(r.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'openssl is not installed' : r.error.message})` };
    if (r.status !== 0) return { ok: false, text: `${p7s} does NOT match this file (openssl cms -verify: ${(r.stderr || r.stdout).trim().split('\n')[0]})` };
    let subject = '';
    try {
      subject = ` by ${new crypto.X509Certificate(fs.readFileSync(signer)).subject.split('\n').join(', ')}`;
    } catch {
      // the signature checked; who signed is only shown when OpenSSL wrote the certificate out
    }
    return { ok: true, text: `${p7s} matches this file (signed${subject}); checked by openssl cms -verify, the certificate's chain to a CA not checked` };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
