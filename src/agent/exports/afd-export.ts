/**
 * Exports the evidence journal's marks of a date range as an AFD (Portaria 671, Annex V; the layout
 * and our choices: docs/afd-layout.md): header from the configured employer, the type 7 lines
 * exactly as sealed, trailer, signature line. Streamed: the marks are read a page at a time and
 * the event loop gets a turn between pages, so the running agent keeps taking punches during a
 * long export. Written as ISO 8859-1 with CR LF, atomically and never through a planted link or over
 * a folder (agent/host/export-file.ts: temp file, fsync, rename, fsync of the directory), under the
 * Annex's file name; with `afd.signingKey`, the detached CAdES `.p7s` of exactly those bytes
 * (hashed as they are written) beside it. Shared by the agent (admin screen)
 * and `timeclock afd export`.
 */
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Config } from '../../config.js';
import { AFD_MAX_DAYS } from '../../contract.js';
import type { LayoutVersion } from '../../domain/afd/header.js';
import { afdDateTime } from '../../domain/afd/mark.js';
import { addDays, chooseTimeZone, localDateTime, utcOffsetMinutes } from '../../domain/time/local-time.js';
import type { Db } from '../../store/database.js';
import type { EmployerCache, Employer } from '../../store/roster/employers.js';
import type { JournalReader } from '../../store/journal/journal-read.js';
import { settingKeys } from '../../store/settings/setting-keys.js';
import { readSetting } from '../../store/settings/settings.js';
import { loadAfdSigner, SigningKeyError, type AfdSigner } from './afd-signature.js';
import { signerConcerns } from './afd-signer-check.js';
import { AfdExportError, afdHeaderPlan, checkAfdRange, type AfdConfig } from './afd-header-plan.js';
import { nsr9, writeAfd, type MarkPages } from './afd-writer.js';
import { employerOfChain } from '../roster/employers.js';
import { checkExportTarget, ExportFile, ExportTargetError, removeExported, syncDir } from '../host/export-file.js';

export { AFD_MAX_DAYS };
const PAGE_SIZE = 1_000;

/** The site's zone (as the roster sync recorded it), else the configured one, else the system's. */
export function afdZone(db: Db, config: Pick<Config, 'timezone'>): string {
  return chooseTimeZone([
    readSetting(db, settingKeys.site)?.timezone,
    config.timezone,
    Intl.DateTimeFormat().resolvedOptions().timeZone,
  ]);
}

export type AfdExportRequest = {
  from: string;
  to: string;
  dir: string;
  /** Default: the Annex's name with the terminal's id. */
  fileName?: string;
  /**
   * The terminal (REP-P installation, docs/evidence-journal.md "Who the REP-P is") whose journal
   * this is: named in the file's name, so two terminals' files, whose NSRs are two sequences, are
   * never taken for one another. Null only where no terminal made it (a journal built in a test).
   */
  terminal: string | null;
  /** Replace a file of that name (and its .p7s); otherwise an existing one is an error. */
  replace?: boolean;
  /** The zone the generation time is written in. */
  zone: string;
  now: Date;
  pageSize?: number;
};

export type AfdExportResult = {
  file: string;
  p7s: string | null;
  marks: number;
  firstNsr: number | null;
  lastNsr: number | null;
  bytes: number;
  layoutVersion: LayoutVersion;
  /** The signing certificate's subject, when signed. */
  signer: string | null;
  /** The employer's CNPJ or CPF in its header. */
  employerId?: string;
  /** The terminal that made it (its journal, its NSR sequence), as its name says. */
  terminal?: string | null;
  /** Each mark without a CPF (twelve zeros in the AFD), by NSR: an inspector cannot tell whose it is. */
  noCpf?: number[];
  /** The files of the workers' other employers (issue 26): one AFD per employer, each a whole chain. */
  others?: AfdExportResult[];
  /**
   * What the person exporting should know: marks without a CPF, employers not read yet, and what makes the file weaker
   * evidence than it should be (unsigned, a signer nobody vouches for, no developer id).
   */
  warnings: string[];
};

/**
 * The marks of the range as one AFD per employer: the configured employer's file where `req`
 * says (always written, even without marks), and one beside it for each other employer whose
 * workers punched in the range (its Annex name; with a chosen file name, the employer's CNPJ/CPF
 * is added before the extension). `employers`: the cache that names them (null: none known).
 */
export async function exportAfd(
  reader: JournalReader,
  config: AfdConfig,
  req: AfdExportRequest,
  employers: EmployerCache | null = null,
): Promise<AfdExportResult> {
  checkAfdRange(req.from, req.to);
  const bounds = await rangeBounds(reader, req.from, req.to);
  const chains = reader.chainsInDates(req.from, req.to, bounds).filter((c) => c !== '');
  const plans = chains.map((chain) => {
    const own = employerOfChain(chain, employers, config.employer);
    return { chain, own, plan: afdHeaderPlan(config, req.from, req.to, own, req.terminal) };
  });
  const main = await exportChain(reader, config, req, '', null, bounds, chains.length > 0);
  const others: AfdExportResult[] = [];
  for (const { chain, own, plan } of plans) {
    const fileName = req.fileName === undefined ? plan.fileName : withSuffix(req.fileName, plan.header.employer.id);
    others.push(await exportChain(reader, config, { ...req, fileName }, chain, own, bounds, true));
  }
  const warnings = [...new Set([...main.warnings, ...others.flatMap((o) => o.warnings)])];
  return { ...main, others, warnings };
}

/** "julho.txt" → "julho-11444777000161.txt". */
function withSuffix(fileName: string, id: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? `${fileName.slice(0, dot)}-${id}${fileName.slice(dot)}` : `${fileName}-${id}`;
}

async function exportChain(
  reader: JournalReader,
  config: AfdConfig,
  req: AfdExportRequest,
  chain: string,
  own: Employer | null,
  bounds: { lo: number; hi: number } | null,
  byChain: boolean,
): Promise<AfdExportResult> {
  const plan = afdHeaderPlan(config, req.from, req.to, own, req.terminal);
  const signer = signerOf(config, req.now);
  const fileName = req.fileName ?? plan.fileName;
  const file = path.join(req.dir, fileName);
  const p7s = `${file}.p7s`;
  const local = localDateTime(req.now.getTime(), req.zone);
  const generatedAt = afdDateTime(local.date, local.time, utcOffsetMinutes(req.now.getTime(), req.zone));
  const opened: ExportFile[] = [];
  try {
    // Both names checked before anything is written: a link or a folder under either is refused.
    for (const f of [file, p7s]) await checkExportTarget(f, req.replace ?? false);
    const afd = await ExportFile.create(file, { replace: req.replace ?? false });
    opened.push(afd);
    const marks: MarkPages = byChain
      ? (after, n) => reader.chainMarksInDates(chain, req.from, req.to, after, n, bounds)
      : (after, n) => reader.marksInDates(req.from, req.to, after, n, bounds);
    // Type 4 records are the terminal's clock, not one employer's: every employer's file carries
    // those of the range (docs/evidence-journal.md, "Employer chains and clock records").
    const adjustments = bounds === null ? [] : reader.clockRecords(bounds.lo, bounds.hi);
    const written = await writeAfd(
      marks,
      adjustments,
      afd,
      { ...plan.header, generatedAt },
      signer !== null,
      req.pageSize ?? PAGE_SIZE,
    );
    await afd.finish();
    let signedBy: string | null = null;
    if (signer) {
      const sig = await ExportFile.create(p7s, { replace: req.replace ?? false });
      opened.push(sig);
      // The employer chain's head now, signed with the file (issue 26 item 8; agent/exports/cades.ts).
      const head = reader.chainHead(chain);
      await sig.write(
        await signer.signDigest(
          written.sha256,
          req.now,
          head ? { ...head, employerId: plan.header.employer.id } : undefined,
        ),
      );
      // The signature first, an older file of that name gone before it: a file that says "signed"
      // is never there without its .p7s, nor beside another file's.
      await removeExported(file);
      await sig.place();
      signedBy = signer.subject;
    }
    await afd.place();
    if (!signer) await removeExported(p7s); // an earlier export's signature does not sign this file
    await syncDir(req.dir);
    const employerId = plan.header.employer.id;
    const noCpfWarnings =
      written.noCpf.length === 0
        ? []
        : [
            `${path.basename(file)}: ${written.noCpf.length} mark${written.noCpf.length === 1 ? '' : 's'} without a CPF (twelve zeros): NSR ${written.noCpf.map(nsr9).join(', ')}`,
          ];
    return {
      file,
      p7s: signer ? p7s : null,
      marks: written.marks,
      firstNsr: written.firstNsr,
      lastNsr: written.lastNsr,
      bytes: written.bytes,
      layoutVersion: plan.header.layoutVersion ?? '003',
      signer: signedBy,
      employerId,
      terminal: req.terminal,
      noCpf: written.noCpf,
      warnings: [...noCpfWarnings, ...exportWarnings(config, signer)],
    };
  } catch (err) {
    await Promise.all(opened.map((f) => f.discard()));
    if (err instanceof AfdExportError) throw err;
    if (err instanceof ExportTargetError) {
      throw new AfdExportError(err.message, err.code === 'exists' ? 'exists' : 'target_unsafe', {
        file: path.basename(err.file),
      });
    }
    const code = (err as NodeJS.ErrnoException).code;
    throw new AfdExportError(`could not write ${file}: ${(err as Error).message}`, 'write_failed', {
      error: code ?? (err as Error).message,
    });
  }
}

/**
 * Said with every export; the file is written all the same (the evidence of punches is never withheld for want of a
 * key).
 */
export function exportWarnings(config: AfdConfig, signer: AfdSigner | null): string[] {
  const warnings: string[] = [];
  if (!signer)
    warnings.push(
      "the file is not signed (afd.signingKey is not set): a REP-P's AFD is signed with an ICP-Brasil certificate, and `timeclock afd verify` refuses it without --allow-unsigned",
    );
  else warnings.push(...signerConcerns(signer.certificate));
  if (!config.afd.developerCnpj)
    warnings.push("no developer id: afd.developerCnpj is not set, so the header's developer CNPJ is fourteen zeros");
  return warnings;
}

function signerOf(config: AfdConfig, now: Date) {
  if (!config.afd.signingKey) return null;
  try {
    return loadAfdSigner(config.afd.signingKey, config.afd.signingKeyPassword, now);
  } catch (err) {
    if (err instanceof SigningKeyError)
      throw new AfdExportError(`${err.message}; nothing was written`, 'signing_failed', { error: err.message });
    throw err;
  }
}

/**
 * The range's first and last NSR, a day at a time with a turn of the event loop every few weeks (years of marks stay
 * responsive).
 */
async function rangeBounds(
  reader: JournalReader,
  from: string,
  to: string,
): Promise<{ lo: number; hi: number } | null> {
  let bounds: { lo: number; hi: number } | null = null;
  for (let day = from, n = 1; day <= to; day = addDays(day, 1), n++) {
    const b = reader.dayBounds(day);
    if (b) bounds = bounds ? { lo: Math.min(bounds.lo, b.lo), hi: Math.max(bounds.hi, b.hi) } : b;
    if (n % 64 === 0) await nextTurn();
  }
  return bounds;
}

export { syncDir };
