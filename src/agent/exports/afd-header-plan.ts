/**
 * What an AFD export is refused for, and the header's fixed part and the Annex's file name planned
 * from the configuration before any file is touched (agent/exports/afd-export.ts writes the file).
 */
import type { Config } from '../../config.js';
import { AFD_MAX_DAYS } from '../../contract.js';
import { afdFileName } from '../../domain/afd/export.js';
import { isAfdDate } from '../../domain/afd/fields.js';
import { buildHeader, type HeaderFields, type LayoutVersion, type TaxId } from '../../domain/afd/header.js';
import { INPI_RULE, normalizeInpiRegistration } from '../../domain/afd/inpi.js';
import { addDays } from '../../domain/time/local-time.js';
import type { Employer } from '../../store/roster/employers.js';

export type AfdErrorCode =
  | 'bad_range'
  | 'employer_missing'
  | 'config_invalid'
  | 'signing_failed'
  | 'exists'
  | 'journal_invalid'
  | 'write_failed'
  | 'target_unsafe';

/** Why an export was refused or failed; `params` are the details a screen words in its language. */
export class AfdExportError extends Error {
  constructor(
    message: string,
    readonly code: AfdErrorCode,
    readonly params: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AfdExportError';
  }
}

export type AfdConfig = Pick<Config, 'employer' | 'afd'>;

/** Inclusive YYYY-MM-DD range, real days, from ≤ to, at most AFD_MAX_DAYS days. */
export function checkAfdRange(from: string, to: string): void {
  const params = { from, to, max: String(AFD_MAX_DAYS) };
  if (!isAfdDate(from) || !isAfdDate(to))
    throw new AfdExportError(`dates are YYYY-MM-DD days of the calendar (got ${from} and ${to})`, 'bad_range', params);
  if (from > to) throw new AfdExportError(`the range starts (${from}) after it ends (${to})`, 'bad_range', params);
  if (addDays(from, AFD_MAX_DAYS - 1) < to)
    throw new AfdExportError(`at most ${AFD_MAX_DAYS} days per file (${from} to ${to} is longer)`, 'bad_range', params);
}

export type AfdHeaderPlan = { header: Omit<HeaderFields, 'generatedAt'>; fileName: string };

/**
 * The header's fixed part and the Annex's file name from the configuration (or, for a worker's own
 * employer, `own`: that employer's tax id and name, the rest configured); refuses what cannot be
 * written, naming the keys. `terminal`: the terminal that makes the file, in its name.
 */
export function afdHeaderPlan(
  config: AfdConfig,
  from: string,
  to: string,
  own: Employer | null = null,
  terminal: string | null = null,
): AfdHeaderPlan {
  const e =
    own === null
      ? config.employer
      : {
          ...config.employer,
          name: own.name ?? undefined,
          cnpj: own.kind === 'cnpj' ? own.id : undefined,
          cpf: own.kind === 'cpf' ? own.id : undefined,
        };
  const missing = [
    ...(e.name ? [] : [own ? `the name of employer ${own.id} (not read from the service yet)` : 'employer.name']),
    ...(e.cnpj || e.cpf ? [] : ['employer.cnpj (or employer.cpf)']),
  ];
  if (missing.length > 0) {
    throw new AfdExportError(
      `the AFD header names the employer: set ${missing.join(' and ')} in the configuration`,
      'employer_missing',
      { keys: missing.join(', ') },
    );
  }
  const employer: TaxId = e.cnpj ? { kind: 'cnpj', id: e.cnpj } : { kind: 'cpf', id: e.cpf as string };
  // The configuration's rule again (a config built in code skips the schema): one rule, never a number accepted at
  // start and refused here.
  const rep = e.repRegistration === undefined ? null : normalizeInpiRegistration(e.repRegistration);
  if (e.repRegistration !== undefined && rep === null) {
    throw new AfdExportError(
      `employer.repRegistration is ${INPI_RULE} (got "${e.repRegistration}")`,
      'config_invalid',
      { key: 'employer.repRegistration' },
    );
  }
  const developer: TaxId | null = config.afd.developerCnpj ? { kind: 'cnpj', id: config.afd.developerCnpj } : null;
  // "004" is the gov.br revision (2026-07-31) that made the CNPJ fields alphanumeric; a file that
  // carries an alphanumeric CNPJ under "003" claims a layout whose CNPJ field is N (docs/afd-layout.md).
  const alphanumeric = [employer, developer].some((t) => t?.kind === 'cnpj' && /[A-Z]/.test(t.id));
  const layoutVersion: LayoutVersion = alphanumeric ? '004' : '003';
  // The CNO/CAEPF configured is the configured employer's site registration, not a subcontractor's.
  const header = {
    employer,
    cnoOrCaepf: own === null ? (e.cno ?? null) : null,
    employerName: e.name as string,
    repRegistration: rep,
    firstDate: from,
    lastDate: to,
    developer,
    layoutVersion,
  };
  try {
    // Built once here so a name ISO 8859-1 cannot carry is refused before any file is touched.
    buildHeader({ ...header, generatedAt: '2000-01-01T00:00:00+0000' });
  } catch (err) {
    throw new AfdExportError(
      `the AFD header cannot be written from the configuration: ${(err as Error).message}`,
      'config_invalid',
      { key: 'employer' },
    );
  }
  return { header, fileName: afdFileName(rep, employer.id, terminal) };
}
