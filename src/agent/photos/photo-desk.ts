/**
 * Issue 31: a photo per punch, the agent's side. The screen takes the frame at the scan and sends
 * it after the punch's answer (`punchPhoto`): a photo is only taken for a punch this terminal
 * answered in the last two minutes, once, as a JPEG within photo.maxBytes. The camera's state
 * comes from the screen (`cameraState`, and each "sem foto"). Nothing here is on the punch's path,
 * emitted as an event, logged beyond the NSR, or sent to the service.
 */
import type { Config } from '../../config.js';
import type { Clock } from '../../domain/time/clock.js';
import { isJpeg, type CameraProblem } from '../../domain/punch/photo.js';
import type { Logger } from '../../log.js';
import { cameraKey, type CameraRecord } from '../../store/settings/camera-record.js';
import type { DurableDb } from '../../store/database.js';
import { PhotoFiles } from '../../store/journal/photo-files.js';
import { readSetting } from '../../store/settings/settings.js';
import type { BackgroundJob } from '../delivery/liveness-job.js';

/** A punch's photo may come this long after its answer (a slow camera, a busy screen). */
export const PHOTO_WINDOW_MS = 2 * 60_000;
/** Photos past their days are looked for this often (and once at the start). */
const PRUNE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

export type PhotoInput = { nsr: number; jpeg: string } | { nsr: number; missing: CameraProblem };
export type PhotoCode = 'stored' | 'no_photo_mode' | 'not_recent' | 'already' | 'not_jpeg' | 'too_big' | 'failed';
export type PhotoAnswer = { ok: boolean; code: PhotoCode };
export type PhotoView = { state: 'photo' | 'missing' | 'removed' | 'none'; jpeg: string | null };

export type PhotoDeskDeps = {
  db: DurableDb;
  dataDir: string;
  photo: Config['photo'];
  clock: Clock;
  log: Logger;
  /** Records the camera's state for status in another process (never fails the caller). */
  record: (r: CameraRecord) => void;
  /** Status changed (the camera went out or came back). */
  changed: () => void;
};

export class PhotoDesk {
  readonly files: PhotoFiles;
  private readonly recent = new Map<number, number>();
  private camera: CameraRecord | null;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly d: PhotoDeskDeps) {
    this.files = new PhotoFiles(d.db, d.dataDir);
    this.camera = this.on ? readSetting(d.db, cameraKey) : null;
  }

  get on(): boolean {
    return this.d.photo.mode === 'on-punch';
  }

  /** A punch answered: its photo may follow (agent.ts calls this for every answer). */
  punched(r: { ok: boolean; nsr?: number | null | undefined; repeat?: boolean }): void {
    if (!this.on || !r.ok || typeof r.nsr !== 'number' || r.repeat === true) return;
    const now = this.d.clock.now();
    for (const [nsr, at] of this.recent) if (now - at > PHOTO_WINDOW_MS) this.recent.delete(nsr);
    this.recent.set(r.nsr, now);
  }

  async take(i: PhotoInput): Promise<PhotoAnswer> {
    if (!this.on) return { ok: false, code: 'no_photo_mode' };
    const at = this.recent.get(i.nsr);
    const now = this.d.clock.now();
    if (at === undefined || now - at > PHOTO_WINDOW_MS) return { ok: false, code: 'not_recent' };
    if ('missing' in i) {
      this.recent.delete(i.nsr);
      this.cameraOut(i.missing, true);
      return this.answer(this.files.missing(i.nsr, now, i.missing));
    }
    const jpeg = Buffer.from(i.jpeg, 'base64');
    if (jpeg.length > this.d.photo.maxBytes) return { ok: false, code: 'too_big' };
    if (!isJpeg(jpeg)) return { ok: false, code: 'not_jpeg' };
    this.recent.delete(i.nsr);
    try {
      const saved = await this.files.save(i.nsr, jpeg, now);
      if (saved === 'saved') this.cameraOk();
      return this.answer(saved);
    } catch (e) {
      // A full disk costs the photo, never the punch (already registered and answered).
      this.d.log.warn('a punch photo could not be stored', { nsr: i.nsr, error: (e as Error).message });
      return { ok: false, code: 'failed' };
    }
  }

  /** The screen's word on its camera (opened, or out and why). */
  cameraState(s: { ok: true } | { ok: false; problem: CameraProblem }): void {
    if (!this.on) return;
    if (s.ok) this.cameraOk();
    else this.cameraOut(s.problem, false);
  }

  /** Status: null with photos off; before the screen said anything, out ("the screen has not opened it"). */
  cameraStatus(): CameraRecord | null {
    if (!this.on) return null;
    return this.camera ?? { ok: false, problem: null, since: 0, missedPunches: 0 };
  }

  /** The manager's view of a punch's photo. */
  view(nsr: number): PhotoView {
    const state = this.files.stateOf(nsr);
    const bytes = state === 'photo' ? this.files.read(nsr) : null;
    return { state: state ?? 'none', jpeg: bytes ? bytes.toString('base64') : null };
  }

  /** Removes photos past photo.keepDays, each with its fact. */
  prune(): number {
    const now = this.d.clock.now();
    const n = this.files.prune(
      now - this.d.photo.keepDays * DAY_MS,
      now,
      `kept ${this.d.photo.keepDays} days (photo.keepDays)`,
    );
    if (n > 0) this.d.log.info('punch photos past their days removed', { count: n });
    return n;
  }

  /** The prune, at the start and hourly (runs with photos off too: a terminal turned off keeps no photo longer). */
  job(): BackgroundJob {
    return {
      start: () => {
        this.safePrune();
        this.timer = setInterval(() => this.safePrune(), PRUNE_EVERY_MS);
        this.timer.unref?.();
      },
      stop: () => {
        if (this.timer !== null) clearInterval(this.timer);
        this.timer = null;
      },
    };
  }

  private safePrune(): void {
    try {
      this.prune();
    } catch (e) {
      this.d.log.warn('punch photos could not be pruned', { error: (e as Error).message });
    }
  }

  private answer(saved: 'saved' | 'no_mark' | 'already'): PhotoAnswer {
    return saved === 'saved'
      ? { ok: true, code: 'stored' }
      : { ok: false, code: saved === 'already' ? 'already' : 'not_recent' };
  }

  private cameraOk(): void {
    if (this.camera?.ok === true) return;
    this.setCamera({ ok: true, problem: null, since: this.d.clock.now(), missedPunches: 0 });
  }

  private cameraOut(problem: CameraProblem, missed: boolean): void {
    const c = this.camera;
    const same = c !== null && !c.ok && c.problem === problem;
    const missedPunches = (same ? c.missedPunches : 0) + (missed ? 1 : 0);
    this.setCamera({ ok: false, problem, since: same ? c.since : this.d.clock.now(), missedPunches });
  }

  private setCamera(r: CameraRecord): void {
    this.camera = r;
    this.d.record(r);
    this.d.changed();
  }
}
