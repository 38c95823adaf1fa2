/** What a test (or `timeclock mock`) may set when starting the mock, and what it can call on it while it runs. */
import type { ApiDialectInput } from '../api/shapes.js';
import type { Clock } from '../domain/time/clock.js';
import type { FaultPlan } from './faults.js';
import type { MockEmployee, MockSeed } from './seed.js';
import type { LeaveInput, MockLeave } from './self-service-state.js';
import type { RequestLogEntry, StoredTimeRecord, TimeRecordType } from './state.js';
import type { ServerVariants } from './variants.js';

export type MockOptions = {
  /** Default '127.0.0.1'. Loopback only: the mock has unauthenticated control endpoints. */
  host?: string;
  /** Default 0 (random free port). */
  port?: number;
  /** Accepted API tokens (Basic auth password, user 'public'); default ['demo-token']. */
  tokens?: string[];
  /** Default 60 per 60_000 ms, as in the spec. */
  rateLimit?: { limit: number; windowMs: number };
  /**
   * Form of `Retry-After` on 429; default 'seconds'. The `retryAfterDate` variant switches to 'http-date' at run time.
   */
  retryAfterFormat?: 'seconds' | 'http-date';
  /** Members left out take their defaults. */
  dialect?: ApiDialectInput;
  /** Default demoSeed(). */
  seed?: MockSeed;
  faults?: FaultPlan;
  /** Answers the spec allows besides our own choices; default none. */
  variants?: ServerVariants;
  /** Window maths, the Date header, `Retry-After` dates, `_created` and log timestamps; default Date.now. */
  clock?: Clock;
  /** Draws for fault selection; default mulberry32(1) so fault sequences are reproducible. */
  random?: () => number;
  /**
   * How long an idle connection is kept (default Node's 5 s). Longer than a client keeps its own
   * (the agent: at most 10 s), the client always closes first, so a reused connection is never
   * reset under it however late a loaded machine runs its timers.
   */
  keepAliveTimeoutMs?: number;
};

export type MockServer = {
  /** Base URL including the version segment, e.g. http://127.0.0.1:41234/v2.1 */
  url: string;
  origin: string;
  port: number;
  setFaults(plan: FaultPlan | null): void;
  setRateLimit(rule: { limit: number; windowMs: number }): void;
  /** The accepted API tokens from now on (a revoked token, a new one issued); also `PUT /__mock/tokens`. */
  setTokens(list: string[]): void;
  /** Server variants from now on (null: none); also `PUT /__mock/variants`. Restarts the `cutBody` count. */
  setVariants(v: ServerVariants | null): void;
  records(): StoredTimeRecord[];
  /**
   * A record as if made elsewhere (another terminal or integration, the service's screens); also `POST
   * /__mock/records`.
   */
  addRecord(r: { employee: string; time: string; type?: TimeRecordType }): StoredTimeRecord;
  /** A record removed on the service; false when none has that `_id`. Also `DELETE /__mock/records/{_id}`. */
  deleteRecord(id: string): boolean;
  requests(): RequestLogEntry[];
  employees(): MockEmployee[];
  addEmployees(list: MockEmployee[]): void;
  setActive(employeeIdOrExternalId: string, active: boolean): void;
  /** `contract_data.allow_external_api_record` (false: POST /times answers 403); undefined removes it. */
  setAllowExternalApiRecord(employeeIdOrExternalId: string, value: boolean | undefined): void;
  /**
   * Work leaves as GET /work-leaves reads them (with `approval_info` whatever the variants); also `GET
   * /__mock/work-leaves`.
   */
  leaves(): MockLeave[];
  /**
   * A leave (`approved` absent: no `approval_info`); throws for an unknown employee. Also `POST /__mock/work-leaves`.
   */
  addLeave(leave: LeaveInput): MockLeave;
  /** Also `DELETE /__mock/work-leaves/{_id}`. */
  deleteLeave(id: string): boolean;
  /**
   * The employee's hours-bank `final_balance` ("-3.25"); undefined resets it to "0.00". Also `PUT
   * /__mock/employees/{key}/hours-bank`.
   */
  setHoursBalance(employeeIdOrExternalId: string, value: string | undefined): void;
  /** Closes the server and destroys open sockets (slow responses included) so tests never hang. */
  close(): Promise<void>;
};
