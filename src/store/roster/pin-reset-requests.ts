/**
 * PIN reset requests (issue 29), read from the audit log: a worker who pressed "Esqueci meu PIN"
 * left a `pin_forgotten` line; the request stands until a PIN is set (or cleared) for them after it.
 * No table of its own: the audit log already keeps both facts in order, and retention keeps it
 * longer than any request waits.
 */
import type { Db } from '../database.js';

export const PIN_FORGOTTEN_EVENT = 'pin_forgotten';

export type StoredPinResetRequest = { employeeId: string; requestedAt: number };

const OPEN_REQUESTS = `
  SELECT f.employee_id AS employeeId, MAX(f.at) AS requestedAt
  FROM audit_log f
  WHERE f.event = '${PIN_FORGOTTEN_EVENT}' AND f.employee_id IS NOT NULL
  GROUP BY f.employee_id
  HAVING MAX(f.id) > COALESCE((SELECT MAX(s.id) FROM audit_log s WHERE s.employee_id = f.employee_id AND s.event IN ('pin_set', 'pin_cleared')), 0)
  ORDER BY requestedAt
  LIMIT ?`;

/** The open requests, oldest first, at most `limit`. */
export function openPinResetRequests(db: Db, limit = 200): StoredPinResetRequest[] {
  return db.prepare(OPEN_REQUESTS).all(limit) as StoredPinResetRequest[];
}
