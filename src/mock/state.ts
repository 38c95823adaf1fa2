/**
 * Everything the mock remembers: the account (sites, employees), what reached it (stored time
 * records, request log) and the settings a test may change while it runs (tokens, faults, rate
 * rule, server variants).
 */
import { z } from 'zod';
import type { ApiDialect, Site } from '../api/shapes.js';
import type { Clock } from '../domain/time/clock.js';
import { faultPlanSchema, type FaultKind, type FaultPlan } from './faults.js';
import { RateWindow } from './rate-window.js';
import { objectIdFor, type MockEmployee, type MockPaymentSource, type MockSeed } from './seed.js';
import { SelfServiceState } from './self-service-state.js';
import { serverVariantsSchema, type ServerVariants } from './variants.js';

/** The types of a time record (spec, time record); one added through the API is 'registro externo' (rule 2). */
export const TIME_RECORD_TYPES = [
  'pré-assinalado',
  'aparelho',
  'web',
  'desconsiderado',
  'app',
  'reconhecimento facial',
  'ajuste manual',
  'offline',
  'registro externo',
] as const;
export type TimeRecordType = (typeof TIME_RECORD_TYPES)[number];

export type StoredTimeRecord = {
  _id: string;
  employee_id: string;
  employee_external_id?: string;
  time: string;
  type: TimeRecordType;
  approved: boolean;
  _created: string;
  receivedAt: number;
  token: string;
};

export type RequestLogEntry = {
  at: number;
  method: string;
  /** Path as received, without the query (e.g. '/v2.1/times'). */
  path: string;
  query: Record<string, string>;
  /** null while unanswered, and for good when the connection was dropped. */
  status: number | null;
  /** Counted against the token's rate window. */
  counted: boolean;
  fault: FaultKind | null;
  /** Message of an unexpected server error (status 500 without a fault). */
  error?: string;
  /** The `trickle` variant: body bytes written so far, of the whole (fewer for good: the client hung up). */
  trickled?: { sent: number; of: number };
};

export const tokensSchema = z.array(z.string().min(1)).min(1);

export const rateRuleSchema = z.strictObject({
  limit: z.number().int().min(1),
  windowMs: z.number().int().min(1),
});

/**
 * Copies the parts of an employee the mock (or a caller) might mutate; the rest is plain data that
 * is never changed in place. Much cheaper than structuredClone for a 100,000-employee seed.
 */
export function copyEmployee(e: MockEmployee): MockEmployee {
  const copy: MockEmployee = { ...e, site_ids: [...e.site_ids] };
  if (e.contract_data) copy.contract_data = { ...e.contract_data };
  return copy;
}

export type MockStateOptions = {
  seed: MockSeed;
  tokens: string[];
  rateLimit: { limit: number; windowMs: number };
  clock: Clock;
  dialect: ApiDialect;
  faults: FaultPlan | null;
  variants: ServerVariants | null;
};

export class MockState {
  readonly clock: Clock;
  readonly dialect: ApiDialect;
  readonly rate: RateWindow;
  readonly sites: Map<string, Site>;
  /** Employers by `_id` (GET /payment-sources/{id}). */
  readonly paymentSources: Map<string, MockPaymentSource>;
  // Map keeps insertion order, which is the stable listing order; re-adding an _id keeps its place.
  readonly employeesById = new Map<string, MockEmployee>();
  /** Place of each `_id` in employeesById, for the `oddRecords` variant (employees are never removed). */
  private readonly indexById = new Map<string, number>();
  private readonly idByExternal = new Map<string, string>();
  /** When each employee was last written (its `_updated`), by the mock's clock. */
  private readonly updatedAtById = new Map<string, number>();
  readonly records: StoredTimeRecord[] = [];
  readonly log: RequestLogEntry[] = [];
  /** Work leaves and hours-bank balances (GET /work-leaves, GET /timesheets). */
  readonly selfService: SelfServiceState;
  private recordSeq = 0;

  tokens: Set<string>;
  faults: FaultPlan | null = null;
  /** Matching requests seen since the plan was set (for `afterMatches`). */
  faultMatches = 0;
  variants: ServerVariants | null = null;
  /** Answers cut so far under the current `cutBody` variant. */
  private cutsServed = 0;

  constructor(opts: MockStateOptions) {
    this.clock = opts.clock;
    this.dialect = opts.dialect;
    this.tokens = new Set(opts.tokens);
    this.rate = new RateWindow(opts.clock, rateRuleSchema.parse(opts.rateLimit));
    this.setFaults(opts.faults);
    this.setVariants(opts.variants);
    this.sites = new Map<string, Site>(opts.seed.sites.map((s) => [s._id, structuredClone(s)]));
    this.paymentSources = new Map((opts.seed.paymentSources ?? []).map((p) => [p._id, structuredClone(p)]));
    this.addEmployees(opts.seed.employees);
    this.selfService = new SelfServiceState(
      (key) => this.employeesById.get(key) ?? this.byExternal(key),
      () => this.clock.now(),
    );
    for (const l of opts.seed.leaves ?? []) this.selfService.addLeave(l);
    for (const [key, value] of Object.entries(opts.seed.balances ?? {})) this.selfService.setBalance(key, value);
  }

  setTokens(list: string[]): void {
    this.tokens = new Set(tokensSchema.parse(list));
  }

  setFaults(plan: FaultPlan | null): void {
    this.faults = plan === null ? null : faultPlanSchema.parse(plan);
    this.faultMatches = 0;
  }

  setVariants(v: ServerVariants | null): void {
    this.variants = v === null ? null : serverVariantsSchema.parse(v);
    this.cutsServed = 0;
  }

  addEmployees(list: MockEmployee[]): void {
    for (const raw of list) {
      const e = copyEmployee(raw);
      if (e.external_id !== undefined) {
        const owner = this.idByExternal.get(e.external_id);
        if (owner !== undefined && owner !== e._id)
          throw new Error(`external_id ${e.external_id} already belongs to ${owner}`);
      }
      const previous = this.employeesById.get(e._id);
      if (previous?.external_id !== undefined) this.idByExternal.delete(previous.external_id);
      if (!this.indexById.has(e._id)) this.indexById.set(e._id, this.employeesById.size);
      this.employeesById.set(e._id, e);
      this.updatedAtById.set(e._id, this.clock.now());
      if (e.external_id !== undefined) this.idByExternal.set(e.external_id, e._id);
    }
  }

  byExternal(ext: string): MockEmployee | undefined {
    const id = this.idByExternal.get(ext);
    return id === undefined ? undefined : this.employeesById.get(id);
  }

  /** 0-based place in the employee map's insertion order. */
  indexOf(id: string): number {
    const i = this.indexById.get(id);
    if (i === undefined) throw new Error(`no employee with _id '${id}'`);
    return i;
  }

  private find(key: string): MockEmployee {
    const e = this.employeesById.get(key) ?? this.byExternal(key);
    if (!e) throw new Error(`no employee with _id or external_id '${key}'`);
    return e;
  }

  setActive(key: string, active: boolean): void {
    const e = this.find(key);
    e.active = active;
    this.updatedAtById.set(e._id, this.clock.now());
  }

  /** The employee's `_updated`, in ms of the mock's clock. */
  updatedAt(id: string): number {
    return this.updatedAtById.get(id) ?? 0;
  }

  /** `contract_data.allow_external_api_record`; `undefined` removes the field. */
  setAllowExternalApiRecord(key: string, value: boolean | undefined): void {
    const e = this.find(key);
    const cd = { ...e.contract_data };
    if (value === undefined) delete cd.allow_external_api_record;
    else cd.allow_external_api_record = value;
    // Do not invent a contract_data the employee did not have just to remove a field from it.
    if (value !== undefined || e.contract_data !== undefined) e.contract_data = cd;
    this.updatedAtById.set(e._id, this.clock.now());
  }

  nextRecordId(): string {
    return objectIdFor('time_record', ++this.recordSeq);
  }

  /**
   * A record made elsewhere (another terminal or integration on the account, the service's own screens): tests and
   * control routes.
   */
  addRecord(key: string, time: string, type: TimeRecordType, token = '(elsewhere)'): StoredTimeRecord {
    const e = this.find(key);
    const at = this.clock.now();
    const rec: StoredTimeRecord = {
      _id: this.nextRecordId(),
      employee_id: e._id,
      time,
      type,
      approved: false,
      _created: `${new Date(at).toISOString().slice(0, 16)}+00:00`,
      receivedAt: at,
      token,
    };
    if (e.external_id !== undefined) rec.employee_external_id = e.external_id;
    this.records.push(rec);
    return rec;
  }

  /** Deletes a stored record (a manager removed it on the service); false when there is none with that `_id`. */
  deleteRecord(id: string): boolean {
    const i = this.records.findIndex((r) => r._id === id);
    if (i < 0) return false;
    this.records.splice(i, 1);
    return true;
  }

  /** Whether this answer for `page` of GET /employees is one the `cutBody` variant cuts (and counts it). */
  takeCut(page: number): boolean {
    const cut = this.variants?.cutBody;
    if (!cut || cut.page !== page || this.cutsServed >= (cut.times ?? 1)) return false;
    this.cutsServed++;
    return true;
  }
}
