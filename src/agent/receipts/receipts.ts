/**
 * Receipts looked up by NSR: the journal's mark and the punch behind it (a ReceiptSource) made into
 * the receipt with this terminal's settings. Shared by the agent (result screen, admin lookup) and
 * `timeclock receipt`. A receipt that cannot be built never undoes a punch: it is left out, logged.
 */
import { storedTerminalIdOf, type Config } from '../../config.js';
import { readTerminalIdFile } from '../../config-terminal-id.js';
import type { PunchReceiptView } from '../../contract.js';
import type { PunchResult } from '../../domain/punch/punch.js';
import type { Logger } from '../../log.js';
import type { Db } from '../../store/database.js';
import { EmployerCache } from '../../store/roster/employers.js';
import { settingKeys } from '../../store/settings/setting-keys.js';
import { readSetting } from '../../store/settings/settings.js';
import { employerOfChain } from '../roster/employers.js';
import type { ReceiptFiles } from './receipt-files.js';
import { buildReceipt, type ReceiptCorrection, type ReceiptPunch, type ReceiptSettings } from './receipt.js';
import type { PunchDay } from './self-service.js';

/** A mark as the journal keeps it: its type 7 line, and the punch it records when that is still here. */
export type ReceiptEvidence = {
  line: string;
  punch: ReceiptPunch | null;
  correction?: ReceiptCorrection | null;
  /** The employer chain it was sealed in ('' the configured employer's). */ chain?: string;
};

/** What receipts need of the evidence journal. */
export type ReceiptSource = { byNsr(nsr: number): ReceiptEvidence | null };

type Ok = Extract<PunchResult, { ok: true }>;
/** A punch's answer as the agent gives it: a registered punch with its receipt when the journal has its mark. */
export type PunchAnswer = Exclude<PunchResult, Ok> | (Ok & { receipt?: PunchReceiptView; day?: PunchDay });

type ReceiptConfig = Pick<Config, 'terminalId' | 'dataDir' | 'employer' | 'receipt'>;

/**
 * `db`: where the site's name and the workers' employers are read (none: the configuration alone). `known`: what
 * the caller already holds (liveReceiptSettings).
 */
export function receiptSettingsOf(
  config: ReceiptConfig,
  db?: Db,
  known: { employers?: EmployerCache; terminalId?: string } = {},
): ReceiptSettings {
  const cache = known.employers ?? (db ? new EmployerCache(db) : null);
  return {
    // Read, never made here: `timeclock receipt` writes nothing; the agent made it at its start.
    terminalId: known.terminalId ?? storedTerminalIdOf(config),
    employer: { name: config.employer.name, cnpj: config.employer.cnpj, cpf: config.employer.cpf },
    portalUrl: config.receipt.portalUrl,
    cno: config.employer.cno,
    repRegistration: config.employer.repRegistration,
    workplace: config.receipt.workplace ?? (db ? siteName(db) : undefined),
    employerOf: (chain) => employerOfChain(chain, cache, config.employer),
  };
}

/**
 * The agent's settings, read at each receipt (the site's name arrives with the first roster sync) without what does
 * not change while it runs, which cost more than the receipt on the punch's path: the employers' statements are
 * prepared once, the terminal id read once (the agent made it at its start).
 */
export function liveReceiptSettings(config: ReceiptConfig, db: Db): () => ReceiptSettings {
  const employers = new EmployerCache(db);
  let terminalId: string | null = null;
  return () => {
    terminalId ??= config.terminalId ?? readTerminalIdFile(config.dataDir);
    return receiptSettingsOf(config, db, terminalId === null ? { employers } : { employers, terminalId });
  };
}

function siteName(db: Db): string | undefined {
  try {
    return readSetting(db, settingKeys.site)?.name ?? undefined;
  } catch {
    return undefined;
  }
}

/** What the receipts are read from. */
export type ReceiptsDeps = {
  source: ReceiptSource;
  /** A function: read at each receipt (the site's name arrives with the first roster sync). */
  settings: ReceiptSettings | (() => ReceiptSettings);
  log: Pick<Logger, 'warn'>;
  /** Where each punch's PDF receipt is kept (Art. 80); none: no files (tests, the read-only CLI). */
  files?: ReceiptFiles | null;
};

export class Receipts {
  private readonly source: ReceiptSource;
  /** A function: read at each receipt (the site's name arrives with the first roster sync). */
  private readonly settings: ReceiptSettings | (() => ReceiptSettings);
  private readonly log: Pick<Logger, 'warn'>;
  /** Where each punch's PDF receipt is kept (Art. 80); none: no files (tests, the read-only CLI). */
  readonly files: ReceiptFiles | null;

  constructor(d: ReceiptsDeps) {
    this.source = d.source;
    this.settings = d.settings;
    this.log = d.log;
    this.files = d.files ?? null;
  }

  private current(): ReceiptSettings {
    return typeof this.settings === 'function' ? this.settings() : this.settings;
  }

  /** Null: no mark with this NSR, or its record cannot be read (logged). */
  byNsr(nsr: number): PunchReceiptView | null {
    try {
      const evidence = this.source.byNsr(nsr);
      return evidence
        ? buildReceipt(evidence.line, evidence.punch, this.current(), evidence.chain ?? '', evidence.correction ?? null)
        : null;
    } catch (e) {
      this.log.warn('no receipt for this NSR', { nsr, error: (e as Error).message });
      return null;
    }
  }

  /** The result with its receipt added, when it is a registered punch whose mark the journal has. */
  attach(r: PunchResult): PunchAnswer {
    if (!r.ok) return r;
    const receipt = r.nsr === null ? null : this.byNsr(r.nsr);
    // After the answer: the PDF and its signature never delay the screen.
    if (receipt) this.files?.keepSoon(receipt);
    return receipt ? { ...r, receipt } : r;
  }
}
