/**
 * The admin screen's punch lists: which punches are waiting and why, one employee's punches of a
 * day, and a date range as CSV. The CSV goes where the AFD goes (agent/exports/afd-admin.ts): a removable
 * drive the agent listed (any other path refused), or a one-time download that AfdAdmin offers and
 * the web bridge serves at AFD_DOWNLOAD_PATH. Answers carry data and codes, never text.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { CallInput, CallOutput, EmployeePunches, PunchCsvAnswer, WaitingList } from '../../contract.js';
import { SEARCH_MAX_EMPLOYEES, WAITING_MAX } from '../../contract.js';
import type { Clock } from '../../domain/time/clock.js';
import { localDateTime } from '../../domain/time/local-time.js';
import type { Logger } from '../../log.js';
import type { AuditLog } from '../../store/roster/audit-log.js';
import type { Db } from '../../store/database.js';
import { PunchLists, type ListedPunchRow } from '../../store/punches/punch-lists.js';
import { ExportTargetError, exportFolder } from '../host/export-file.js';
import { writePunchCsv } from './punch-csv.js';
import { DEFAULT_DRIVE_ROOTS, listRemovableDrives, type DriveRoots } from '../host/removable-drives.js';

export type PunchAdminDeps = {
  db: Db;
  /** The site's zone: what "today" means. */
  zone: () => string;
  clock: Clock;
  log: Logger;
  audit: AuditLog;
  drives?: DriveRoots;
  /** Where files wait for their download (AfdAdmin's folder, emptied at start). */
  downloadDir: string;
  /** Registers a file for one download (AfdAdmin.offer); its id. */
  offer(file: string, contentType: string): string;
};

const listed = (r: ListedPunchRow) => ({
  id: r.id,
  employeeName: r.employee_name,
  externalId: r.employee_external_id,
  localDate: r.local_date,
  localTime: r.local_time,
  attempts: r.attempts,
  lastError: r.last_error,
  heldReason: r.held_reason,
  nsr: r.nsr,
});

export class PunchAdmin {
  private readonly lists: PunchLists;
  private busy = false;

  constructor(private readonly d: PunchAdminDeps) {
    this.lists = new PunchLists(d.db);
  }

  waiting(): WaitingList {
    const { total, rows } = this.lists.waiting(WAITING_MAX);
    return {
      total,
      punches: rows.map((r) => ({
        ...listed(r),
        state: r.state as 'pending' | 'sending' | 'in_doubt' | 'held',
        capturedAt: r.captured_at,
      })),
    };
  }

  find(i: CallInput<'findPunches'>): EmployeePunches {
    const date = i.date ?? localDateTime(this.d.clock.now(), this.d.zone()).date;
    const found = this.lists.findEmployees(i.employee, SEARCH_MAX_EMPLOYEES);
    const employees = found.slice(0, SEARCH_MAX_EMPLOYEES);
    const punches = employees.flatMap((e) => this.lists.dayOf(e.id, date));
    punches.sort((a, b) => a.captured_at - b.captured_at || a.id - b.id);
    return {
      date,
      employees: employees.map((e) => ({ id: e.id, externalId: e.external_id, name: e.full_name })),
      more: found.length > SEARCH_MAX_EMPLOYEES,
      punches: punches.map((r) => ({
        ...listed(r),
        state: r.state,
        sentAt: r.sent_at,
        rejectReason: r.reject_reason,
        remoteId: r.remote_id,
      })),
    };
  }

  async exportCsv(i: CallInput<'exportPunchesCsv'>): Promise<PunchCsvAnswer> {
    if (this.busy) return { ok: false, code: 'busy', params: {} };
    this.busy = true;
    const started = Date.now();
    const fileName = `punches_${i.from}_${i.to}.csv`;
    try {
      let dir: string;
      let where: Extract<CallOutput<'exportPunchesCsv'>, { ok: true }>['where'];
      if (i.target.kind === 'drive') {
        const wanted = i.target.path;
        const drive = (await listRemovableDrives(this.d.drives ?? DEFAULT_DRIVE_ROOTS)).find((x) => x.path === wanted);
        if (!drive) return { ok: false, code: 'drive_unknown', params: { path: wanted } };
        if (drive.readOnly) return { ok: false, code: 'drive_read_only', params: { drive: drive.label } };
        const folder = 'PUNCHES';
        dir = path.join(drive.path, folder);
        await exportFolder(dir);
        where = { kind: 'drive', label: drive.label, folder };
      } else {
        dir = path.join(this.d.downloadDir, randomBytes(8).toString('hex'));
        await exportFolder(dir, 0o700);
        where = { kind: 'download' };
      }
      const file = path.join(dir, fileName);
      const r = await writePunchCsv(this.lists, i.from, i.to, file);
      const download = where.kind === 'download' ? this.d.offer(file, 'text/csv; charset=utf-8') : null;
      this.d.audit.record(
        this.d.clock.now(),
        'punches_exported',
        null,
        `${i.from}..${i.to}: ${r.rows} punches, ${r.bytes} bytes, ${where.kind === 'drive' ? `drive ${where.label}` : 'download'}`,
      );
      this.d.log.info('punches exported as CSV', {
        from: i.from,
        to: i.to,
        rows: r.rows,
        bytes: r.bytes,
        target: where.kind,
        ms: Date.now() - started,
      });
      return { ok: true, fileName, rows: r.rows, bytes: r.bytes, where, download };
    } catch (e) {
      if (e instanceof ExportTargetError) {
        this.d.log.warn('punch CSV export refused', { error: e.message });
        return { ok: false, code: 'target_unsafe', params: { file: path.basename(e.file) } };
      }
      this.d.log.error('punch CSV export failed', { error: (e as Error).message });
      return {
        ok: false,
        code: 'write_failed',
        params: { error: (e as NodeJS.ErrnoException).code ?? (e as Error).message },
      };
    } finally {
      this.busy = false;
    }
  }
}
