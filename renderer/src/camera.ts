/**
 * Issue 31: the screen's camera with photo.mode on-punch. Opened once (video only) and kept open,
 * so a frame is there at the instant of the scan or the keypad's confirm; `grab()` copies it into a
 * canvas (`frame()`), encoded as a small JPEG after the punch's answer is on screen and sent then. A camera missing,
 * refused, busy or gone gives "sem foto" with why, never an error.
 */
import type { CameraProblemView, CallInput } from '../../src/contract.js';

export type PhotoSize = { width: number; height: number; maxBytes: number };
export type Shot = { jpeg: string } | { missing: CameraProblemView };
export type CameraReport = CallInput<'cameraState'>;
/** A frame taken at a punch: its JPEG (or why there is none) when asked. */
export type Frame = { encode(): Promise<Shot> };

/** A camera that failed is tried again this often (plugged back in, freed by another program). */
const REOPEN_MS = 10_000;
/** JPEG qualities tried in turn until the photo fits maxBytes. */
const QUALITIES = [0.7, 0.55, 0.4, 0.25, 0.15];

export class Camera {
  #video: HTMLVideoElement | null = null;
  #stream: MediaStream | null = null;
  #problem: CameraProblemView | null = null;
  #opening: Promise<void> | null = null;
  #reopen: ReturnType<typeof setTimeout> | null = null;
  #reported = '';

  constructor(
    private readonly size: PhotoSize,
    private readonly report: (r: CameraReport) => void,
  ) {}

  /** Opens the camera (again); resolves when a frame can be taken or it is known to be out. */
  open(): Promise<void> {
    this.#opening ??= this.#open().finally(() => (this.#opening = null));
    return this.#opening;
  }

  /**
   * The frame of this instant, copied into a canvas now (cheap); encoded to a JPEG only when asked
   * (`encode`), which the screen does after the punch's answer is painted: Chromium encodes in the
   * page's idle time, which would otherwise fall between the scan and the answer.
   */
  frame(): Frame {
    const video = this.#video;
    if (!video || !this.#live()) {
      const problem = this.#problem ?? 'failed';
      this.#out(problem);
      return { encode: () => Promise.resolve({ missing: problem }) };
    }
    const canvas = document.createElement('canvas');
    canvas.width = this.size.width;
    canvas.height = this.size.height;
    const g = canvas.getContext('2d');
    if (!g) return { encode: () => Promise.resolve({ missing: 'failed' }) };
    // Cover: the frame scaled to fill the photo, its middle kept.
    const vw = video.videoWidth || this.size.width;
    const vh = video.videoHeight || this.size.height;
    const scale = Math.max(this.size.width / vw, this.size.height / vh);
    const w = vw * scale;
    const h = vh * scale;
    g.drawImage(video, (this.size.width - w) / 2, (this.size.height - h) / 2, w, h);
    return { encode: () => encodeJpeg(canvas, this.size.maxBytes) };
  }

  async #open(): Promise<void> {
    if (this.#live()) return;
    this.#close();
    const media = navigator.mediaDevices as MediaDevices | undefined;
    if (!media?.getUserMedia) return this.#out('unsupported');
    try {
      // The photo's size and a few frames a second: a frame at most 100 ms old at the scan, little CPU
      // spent on a camera kept open all day beside the punches.
      const video = {
        width: { ideal: this.size.width },
        height: { ideal: this.size.height },
        frameRate: { ideal: 10, max: 15 },
      };
      const stream = await media.getUserMedia({ audio: false, video });
      const el = document.createElement('video');
      el.muted = true;
      el.playsInline = true;
      el.srcObject = stream;
      await el.play();
      this.#stream = stream;
      this.#video = el;
      for (const track of stream.getVideoTracks()) track.addEventListener('ended', () => this.#lost('missing'));
      this.#problem = null;
      this.#send({ ok: true });
    } catch (e) {
      this.#out(problemOf(e));
    }
  }

  #live(): boolean {
    return this.#stream?.getVideoTracks().some((t) => t.readyState === 'live' && t.enabled) === true;
  }

  #lost(problem: CameraProblemView): void {
    this.#close();
    this.#out(problem);
  }

  #out(problem: CameraProblemView): void {
    this.#problem = problem;
    this.#send({ ok: false, problem });
    if (this.#reopen === null) {
      this.#reopen = setTimeout(() => {
        this.#reopen = null;
        void this.open();
      }, REOPEN_MS);
    }
  }

  #close(): void {
    for (const t of this.#stream?.getTracks() ?? []) t.stop();
    this.#stream = null;
    this.#video = null;
  }

  /** Tells the agent when the state changes (not at every punch). */
  #send(r: CameraReport): void {
    const key = JSON.stringify(r);
    if (key === this.#reported) return;
    this.#reported = key;
    this.report(r);
  }
}

async function encodeJpeg(canvas: HTMLCanvasElement, maxBytes: number): Promise<Shot> {
  for (const q of QUALITIES) {
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', q));
    if (!blob) return { missing: 'failed' };
    if (blob.size <= maxBytes) return { jpeg: base64Of(new Uint8Array(await blob.arrayBuffer())) };
  }
  return { missing: 'failed' };
}

function problemOf(e: unknown): CameraProblemView {
  const name = e instanceof DOMException || e instanceof Error ? e.name : '';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') return 'missing';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'denied';
  if (name === 'NotReadableError' || name === 'AbortError' || name === 'TrackStartError') return 'busy';
  return 'failed';
}

function base64Of(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
