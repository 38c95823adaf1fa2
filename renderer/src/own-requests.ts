/**
 * The agent emits a `punch` event for every punch result, also for the ones answering this page's
 * own punch/badgeScan/answerPin calls; the page shows its own call's answer. Each own call carries
 * a fresh `requestId`, which the event of its result echoes: an event with an id this page gave
 * is its own answer again, whenever it arrives (before or after the answer); any other event (an
 * HID reader's punch, another screen's) is shown.
 */

/** Ids remembered: far more than calls a page can have in flight or answered but not yet echoed. */
const REMEMBERED = 64;

export class OwnRequests {
  readonly #ids = new Set<string>();

  /** A fresh id for an own call, remembered as this page's. */
  next(): string {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    const id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    this.#ids.add(id);
    // A Set iterates in insertion order: the first is the oldest.
    const oldest = this.#ids.size > REMEMBERED ? this.#ids.values().next().value : undefined;
    if (oldest !== undefined) this.#ids.delete(oldest);
    return id;
  }

  /** Whether a `punch` event carrying `requestId` is the echo of one of this page's calls. */
  isOwn(requestId: string | undefined): boolean {
    return requestId !== undefined && this.#ids.has(requestId);
  }
}
