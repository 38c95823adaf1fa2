/**
 * The admin screen's AFD export: where a file can go (the removable drives mounted now), the export
 * itself (one at a time, paced so punches keep flowing), and the one-time downloads the web bridge
 * serves in browser mode. The screen names a drive by the path this listing gave; any other path
 * is refused, so the screen cannot make the agent write elsewhere.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { terminalIdOf, type Config } from '../../config.js';
import type { AfdExportAnswer, CallInput, CallOutput } from '../../contract.js';
import type { Clock } from '../../domain/time/clock.js';
import { localDateTime } from '../../domain/time/local-time.js';
import type { Logger } from '../../log.js';
import type { AuditLog } from '../../store/roster/audit-log.js';
import type { Db } from '../../store/database.js';
import { JournalReader } from '../../store/journal/journal-read.js';
import { EmployerCache } from '../../store/roster/employers.js';
import { afdZone, exportAfd, type AfdExportResult } from './afd-export.js';
import { AfdExportError, afdHeaderPlan } from './afd-header-plan.js';
import { ExportTargetError, exportFolder } from '../host/export-file.js';
import { PunchAdmin } from './punch-lists.js';
import { DEFAULT_DRIVE_ROOTS, listRemovableDrives, type DriveRoots } from '../host/removable-drives.js';
import { unmountDrive, type UnmountAnswer } from '../host/unmount-drive.js';

/** How long an exported file waits for its download before it is deleted. */
export const DOWNLOAD_TTL_MS = 10 * 60_000;
const DOWNLOAD_DIR = 'afd-downloads';

export type AfdDownload = {
  file: string;
  name: string;
  contentType: string;
  bytes: number;
  /** Deletes the file: call once it was sent. */ done(): void;
};

export type AfdAdminDeps = {
  db: Db;
  config: Pick<Config, 'employer' | 'afd' | 'timezone' | 'dataDir' | 'terminalId'>;
  clock: Clock;
  log: Logger;
  audit: AuditLog;
  drives?: DriveRoots;
};

type Pending = { file: string; name: string; contentType: string; timer: NodeJS.Timeout };

export class AfdAdmin {
  private readonly reader: JournalReader;
  private readonly downloadDir: string;
  private readonly downloads = new Map<string, Pending>();
  private busy = false;
  /**
   * The admin screen's punch lists and CSV export (agent/exports/punch-lists.ts): same drives, same one-time downloads.
   */
  readonly punches: PunchAdmin;

  constructor(private readonly d: AfdAdminDeps) {
    this.reader = new JournalReader(d.db);
    this.downloadDir = path.join(d.config.dataDir, DOWNLOAD_DIR);
    // Files a previous run exported and nobody fetched: their ids died with it. Never a reason not to start.
    try {
      fs.rmSync(this.downloadDir, { recursive: true, force: true });
    } catch (e) {
      d.log.warn('could not delete AFD files left for download', {
        dir: this.downloadDir,
        error: (e as Error).message,
      });
    }
    this.punches = new PunchAdmin({
      ...d,
      zone: () => this.zone(),
      downloadDir: this.downloadDir,
      offer: (file, type) => this.offer(file, type),
    });
  }

  private zone(): string {
    return afdZone(this.d.db, this.d.config);
  }

  async targets(): Promise<CallOutput<'afdTargets'>> {
    const today = localDateTime(this.d.clock.now(), this.zone()).date;
    let missing: string[] = [];
    try {
      afdHeaderPlan(this.d.config, today, today);
    } catch (e) {
      if (e instanceof AfdExportError)
        missing =
          e.code === 'employer_missing' ? (e.params['keys'] ?? '').split(', ') : [e.params['key'] ?? 'employer'];
    }
    const drives = await listRemovableDrives(this.d.drives ?? DEFAULT_DRIVE_ROOTS);
    return { today, drives, missing, signed: Boolean(this.d.config.afd.signingKey) };
  }

  async export(i: CallInput<'exportAfd'>): Promise<AfdExportAnswer> {
    if (this.busy) return { ok: false, code: 'busy', params: {} };
    this.busy = true;
    const started = Date.now();
    try {
      const now = new Date(this.d.clock.now());
      const base = {
        from: i.from,
        to: i.to,
        zone: this.zone(),
        now,
        replace: true,
        terminal: terminalIdOf(this.d.config),
      };
      let r: AfdExportResult;
      let where: Extract<AfdExportAnswer, { ok: true }>['where'];
      if (i.target.kind === 'drive') {
        const wanted = i.target.path;
        const drive = (await listRemovableDrives(this.d.drives ?? DEFAULT_DRIVE_ROOTS)).find((x) => x.path === wanted);
        if (!drive) return { ok: false, code: 'drive_unknown', params: { path: wanted } };
        if (drive.readOnly) return { ok: false, code: 'drive_read_only', params: { drive: drive.label } };
        // One folder per period: exports of other periods (same Annex name) on the drive are kept.
        const folder = `AFD_${i.from}_${i.to}`;
        const dir = path.join(drive.path, folder);
        await exportFolder(dir);
        r = await exportAfd(this.reader, this.d.config, { ...base, dir }, new EmployerCache(this.d.db));
        where = { kind: 'drive', label: drive.label, folder };
      } else {
        const dir = path.join(this.downloadDir, randomBytes(8).toString('hex'));
        await exportFolder(dir, 0o700);
        r = await exportAfd(this.reader, this.d.config, { ...base, dir }, new EmployerCache(this.d.db));
        where = { kind: 'download' };
      }
      const downloads =
        where.kind === 'download'
          ? {
              file: this.offer(r.file, 'text/plain; charset=iso-8859-1'),
              p7s: r.p7s ? this.offer(r.p7s, 'application/pkcs7-signature') : null,
            }
          : null;
      const fileName = path.basename(r.file);
      const more = (r.others ?? []).map((o) => `${path.basename(o.file)} ${o.marks} marks`);
      const detail = `terminal ${base.terminal}, ${i.from}..${i.to}: ${r.marks} marks, ${r.bytes} bytes, ${r.signer ? 'signed' : 'unsigned'}, ${where.kind === 'drive' ? `drive ${where.label}` : 'download'}${more.length ? `; other employers: ${more.join(', ')}` : ''}`;
      for (const w of r.warnings ?? []) this.d.log.warn('AFD export', { warning: w });
      this.d.audit.record(this.d.clock.now(), 'afd_exported', null, detail);
      this.d.log.info('AFD exported', {
        terminal: base.terminal,
        from: i.from,
        to: i.to,
        marks: r.marks,
        bytes: r.bytes,
        signed: r.signer !== null,
        target: where.kind,
        ms: Date.now() - started,
      });
      return {
        ok: true,
        fileName,
        marks: r.marks,
        firstNsr: r.firstNsr,
        lastNsr: r.lastNsr,
        bytes: r.bytes,
        signed: r.signer !== null,
        where,
        downloads,
        terminal: base.terminal,
      };
    } catch (e) {
      if (e instanceof AfdExportError) {
        this.d.log.warn('AFD export refused', { code: e.code, error: e.message });
        return { ok: false, code: e.code, params: e.params };
      }
      if (e instanceof ExportTargetError) {
        this.d.log.warn('AFD export refused', { code: 'target_unsafe', error: e.message });
        return { ok: false, code: 'target_unsafe', params: { file: path.basename(e.file) } };
      }
      this.d.log.error('AFD export failed', { error: (e as Error).message });
      return {
        ok: false,
        code: 'write_failed',
        params: { error: (e as NodeJS.ErrnoException).code ?? (e as Error).message },
      };
    } finally {
      this.busy = false;
    }
  }

  /** Unmounts a listed drive so it can be pulled out (src/agent/host/unmount-drive.ts). */
  async unmount(wanted: string): Promise<UnmountAnswer> {
    const r = await unmountDrive(wanted, this.d.drives ?? DEFAULT_DRIVE_ROOTS);
    if (r.ok) this.d.log.info('drive unmounted', { drive: r.label });
    else this.d.log.warn('drive not unmounted', { code: r.code, ...r.params });
    return r;
  }

  /** Registers an exported file for one download; it is deleted after DOWNLOAD_TTL_MS if nobody fetches it. */
  private offer(file: string, contentType: string): string {
    const id = randomBytes(16).toString('hex');
    const timer = setTimeout(() => this.drop(id), DOWNLOAD_TTL_MS);
    timer.unref();
    this.downloads.set(id, { file, name: path.basename(file), contentType, timer });
    return id;
  }

  private drop(id: string): void {
    const p = this.downloads.get(id);
    if (!p) return;
    this.downloads.delete(id);
    clearTimeout(p.timer);
    this.remove(p.file);
  }

  private remove(file: string): void {
    fs.rm(file, { force: true }, () => {
      // The export's own folder goes when its last file went (rmdir fails while one is left).
      fs.rmdir(path.dirname(file), () => undefined);
    });
  }

  /** The file of a download id, once: a second request with the same id gets null. */
  takeDownload(id: string): AfdDownload | null {
    const p = this.downloads.get(id);
    if (!p) return null;
    this.downloads.delete(id);
    clearTimeout(p.timer);
    let bytes: number;
    try {
      bytes = fs.statSync(p.file).size;
    } catch {
      return null;
    }
    return { file: p.file, name: p.name, contentType: p.contentType, bytes, done: () => this.remove(p.file) };
  }

  /** At the agent's stop: files not fetched are deleted. */
  close(): void {
    for (const id of [...this.downloads.keys()]) this.drop(id);
  }
}
