import type { WritableDb } from '../database.js';

/** One line of the audit log, newest first from `recent()`. */
export type AuditEntry = {
  id: number;
  at: number;
  event: string;
  employeeId: string | null;
  detail: string | null;
};

type AuditRow = { id: number; at: number; event: string; employee_id: string | null; detail: string | null };

/** Longest `detail` kept: the log is for people reading what happened, not for payloads. */
export const AUDIT_DETAIL_MAX = 500;

/**
 * Security-relevant events of the terminal (PIN set/cleared, every PIN attempt, ...), in the
 * `audit_log` table. Callers must never put a PIN, a token or any other secret in `detail`:
 * the log is shown to site managers and copied for support.
 *
 * `record` runs on the caller's connection, so a caller inside `db.transaction` gets its audit
 * line committed (or rolled back) together with the change it describes.
 */
export class AuditLog {
  private readonly stmts;

  constructor(db: WritableDb) {
    this.stmts = {
      insert: db.prepare('INSERT INTO audit_log (at, event, employee_id, detail) VALUES (?, ?, ?, ?)'),
      recent: db.prepare('SELECT id, at, event, employee_id, detail FROM audit_log ORDER BY id DESC LIMIT ?'),
    };
  }

  record(at: number, event: string, employeeId: string | null, detail: string | null = null): void {
    const kept =
      detail !== null && detail.length > AUDIT_DETAIL_MAX ? `${detail.slice(0, AUDIT_DETAIL_MAX - 1)}…` : detail;
    this.stmts.insert.run(at, event, employeeId, kept);
  }

  /** The latest `limit` entries, newest first. */
  recent(limit = 100): AuditEntry[] {
    return (this.stmts.recent.all(Math.max(0, Math.floor(limit))) as AuditRow[]).map((r) => ({
      id: r.id,
      at: r.at,
      event: r.event,
      employeeId: r.employee_id,
      detail: r.detail,
    }));
  }
}
