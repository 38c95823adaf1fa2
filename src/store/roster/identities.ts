import type { Lookups } from '../../domain/people/identity.js';
import type { WritableDb } from '../database.js';
import type { RosterEmployee } from './roster.js';

export type Enrollment = { code: string; employee_id: string; enrolled_at: number; enrolled_via: string };

/**
 * Credential lookups against the cached roster, and the badge enrollments. Enrollments live in
 * their own table so roster syncs never touch them; an enrollment whose employee left the roster
 * simply finds nobody (the join drops it).
 */
export class Identities {
  private readonly stmts;
  readonly lookups: Lookups<RosterEmployee>;

  constructor(private readonly db: WritableDb) {
    this.stmts = {
      byBadge: db.prepare(
        'SELECT r.* FROM badge_enrollments b JOIN roster_employees r ON r.id = b.employee_id WHERE b.code = ?',
      ),
      byExternalId: db.prepare('SELECT * FROM roster_employees WHERE external_id = ?'),
      byRegistration: db.prepare('SELECT * FROM roster_employees WHERE registration_number = ? LIMIT 2'),
      byCpf: db.prepare('SELECT * FROM roster_employees WHERE cpf = ? LIMIT 2'),
      byId: db.prepare('SELECT * FROM roster_employees WHERE id = ?'),
      enroll: db.prepare(
        `INSERT INTO badge_enrollments (code, employee_id, enrolled_at, enrolled_via) VALUES (@code, @employeeId, @at, @via)
         ON CONFLICT (code) DO UPDATE SET employee_id = excluded.employee_id, enrolled_at = excluded.enrolled_at, enrolled_via = excluded.enrolled_via`,
      ),
      enrollment: db.prepare('SELECT * FROM badge_enrollments WHERE code = ?'),
      unenroll: db.prepare('DELETE FROM badge_enrollments WHERE code = ?'),
      // Kept by triggers (migration 10): status reads one row, not 100,000.
      count: db.prepare('SELECT n FROM badge_count'),
    };
    const one = (s: { get(...a: unknown[]): unknown }) => (v: string) =>
      (s.get(v) as RosterEmployee | undefined) ?? null;
    const many = (s: { all(...a: unknown[]): unknown[] }) => (v: string) => s.all(v) as RosterEmployee[];
    this.lookups = {
      badge: one(this.stmts.byBadge),
      external_id: one(this.stmts.byExternalId),
      registration_number: many(this.stmts.byRegistration),
      cpf: many(this.stmts.byCpf),
    };
  }

  employee(id: string): RosterEmployee | null {
    return (this.stmts.byId.get(id) as RosterEmployee | undefined) ?? null;
  }

  /** Links a badge to an employee, replacing any earlier owner of the same badge. */
  enroll(code: string, employeeId: string, at: number, via: string): { previousOwner: string | null } {
    return this.db.transaction(() => {
      const before = this.stmts.enrollment.get(code) as Enrollment | undefined;
      this.stmts.enroll.run({ code, employeeId, at, via });
      return { previousOwner: before && before.employee_id !== employeeId ? before.employee_id : null };
    })();
  }

  unenroll(code: string): boolean {
    return this.stmts.unenroll.run(code).changes > 0;
  }

  enrollment(code: string): Enrollment | null {
    return (this.stmts.enrollment.get(code) as Enrollment | undefined) ?? null;
  }

  enrollmentCount(): number {
    return (this.stmts.count.get() as { n: number }).n;
  }
}
