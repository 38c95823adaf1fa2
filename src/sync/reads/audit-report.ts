/** What `timeclock audit compare` reports: each mark found, missing or unchecked, and what no mark explains. */

export type AuditMarkResult = {
  nsr: number;
  employee: string | null;
  minute: string | null;
  delivered: boolean | null;
  state: string;
} & (
  | { status: 'found'; recordId: string | null; type: string | null }
  /** `note`: what the service has at that minute instead (a record of another type), if anything. */
  | { status: 'missing'; note: string | null }
  | { status: 'unchecked'; reason: string }
);

/** A record of type 'registro externo' (or none) at a minute no mark of this journal explains. */
export type Unexplained = {
  employee: string;
  day: string;
  minute: string;
  recordId: string | null;
  type: string | null;
};

export type AuditCounts = {
  marks: number;
  found: number;
  missing: number;
  unchecked: number;
  unexplained: number;
  missingDelivered: number;
  requests: number;
};

export type AuditReport = {
  from: string;
  to: string;
  startedAt: number;
  finishedAt: number;
  /** In NSR order. */
  marks: AuditMarkResult[];
  unexplained: Unexplained[];
  counts: AuditCounts;
  /** Records of the answers that could not be read (no `time` of a form we read): skipped one by one. */
  skippedRecords: number;
  /** Stopped (signal) before every request was made. */
  stopped: boolean;
};
