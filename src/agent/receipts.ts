/**
 * Receipts looked up by NSR: the journal's mark and the punch behind it (a ReceiptSource) made into
 * the receipt with this terminal's settings. Shared by the agent (result screen, admin lookup) and
 * `timeclock receipt`. A receipt that cannot be built never undoes a punch: it is left out, logged.
 */
import { storedTerminalIdOf, type Config } from '../config.js';
import type { PunchReceiptView } from '../contract.js';
import type { PunchResult } from '../domain/punch.js';
import type { Logger } from '../log.js';
import { buildReceipt, type ReceiptCorrection, type ReceiptPunch, type ReceiptSettings } from './receipt.js';
import type { PunchDay } from './self-service.js';

/** A mark as the journal keeps it: its type 7 line, and the punch it records when that is still here. */
export type ReceiptEvidence = { line: string; punch: ReceiptPunch | null; correction?: ReceiptCorrection | null };

/** What receipts need of the evidence journal. */
export type ReceiptSource = { byNsr(nsr: number): ReceiptEvidence | null };

type Ok = Extract<PunchResult, { ok: true }>;
/** A punch's answer as the agent gives it: a registered punch with its receipt when the journal has its mark. */
export type PunchAnswer = Exclude<PunchResult, Ok> | (Ok & { receipt?: PunchReceiptView; day?: PunchDay });

export function receiptSettingsOf(config: Pick<Config, 'terminalId' | 'dataDir' | 'employer' | 'receipt'>): ReceiptSettings {
  return {
    // Read, never made here: `timeclock receipt` writes nothing; the agent made it at its start.
    terminalId: storedTerminalIdOf(config),
    employer: { name: config.employer.name, cnpj: config.employer.cnpj, cpf: config.employer.cpf },
    portalUrl: config.receipt.portalUrl,
  };
}

export class Receipts {
  constructor(
    private readonly source: ReceiptSource,
    private readonly settings: ReceiptSettings,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  /** Null: no mark with this NSR, or its record cannot be read (logged). */
  byNsr(nsr: number): PunchReceiptView | null {
    try {
      const evidence = this.source.byNsr(nsr);
      return evidence ? buildReceipt(evidence.line, evidence.punch, this.settings, evidence.correction ?? null) : null;
    } catch (e) {
      this.log.warn('no receipt for this NSR', { nsr, error: (e as Error).message });
      return null;
    }
  }

  /** The result with its receipt added, when it is a registered punch whose mark the journal has. */
  attach(r: PunchResult): PunchAnswer {
    if (!r.ok) return r;
    const receipt = r.nsr === null ? null : this.byNsr(r.nsr);
    return receipt ? { ...r, receipt } : r;
  }
}
