/**
 * One punch's `POST /times`: its time anchored first when its boot has no answer yet, held for a
 * person when its wall-clock time cannot be true, then sent and its answer recorded. Apart from the
 * uploader's loop (uploader.ts), which decides when a punch goes and on which slot.
 */
import type { Clock } from '../../domain/time/clock.js';
import type { PunchRow } from '../../store/punches/outbox.js';
import { recordPunchAnswer, type AnswerContext } from './punch-answer.js';
import type { ProbeReads } from './probe-reads.js';
import { employeeRefOf, type Reconciler } from './reconcile.js';
import type { PunchAnchoring, TimesApi } from './uploader-types.js';

/** What sending a punch needs: recording its answer, and the parts of the uploader it asks. */
export type SendContext = AnswerContext & {
  api: Pick<TimesApi, 'postTime'>;
  clock: Clock;
  anchoring: PunchAnchoring;
  probes: ProbeReads;
  reconciler: Reconciler;
};

/** Sends one punch; resolves with the time its answer (or failure) arrived. */
export async function sendPunch(c: SendContext, picked: PunchRow): Promise<number> {
  let item = picked;
  if (c.anchoring.needsAnchor(item)) {
    // Any answer with a Date header anchors the clock (the API client tells the time source).
    const anchoredAt = await c.probes.forAnchor(item);
    if (anchoredAt !== null) return anchoredAt;
  }
  c.anchoring.reanchor(item);
  // Taken before the first anchor: read it again, with the time the anchor gave it.
  if (item.anchored === 0) item = c.outbox.get(item.id) ?? item;
  // Still on the wall clock (an earlier boot, or no usable Date): a time that cannot be true waits for a person.
  const doubt = item.anchored === 0 ? c.anchoring.doubt(item) : null;
  if (doubt !== null) return holdForClock(c, item, doubt);
  const sentAt = c.clock.now();
  c.outbox.markSending(item.id, sentAt);
  const res = await c.api.postTime(employeeRefOf(item), item.local_date, item.local_time);
  const now = c.clock.now();
  c.health.noteAnswer(res, sentAt, now);
  if (res.kind === 'forbidden') return c.probes.onForbidden(item, res.reason, now);
  // A 409 after a list said it absent: counted toward the hand-off, not another turn of POST, 409, GET.
  if (res.kind === 'unknown' && res.status === 409 && c.reconciler.conflictAfterAbsent(item, now, res.error))
    return now;
  recordPunchAnswer(c, item, res, now);
  return now;
}

/** Its wall-clock time cannot be true (a dead RTC): kept for a person, never delivered as fact. */
function holdForClock(c: SendContext, item: PunchRow, why: string): number {
  const now = c.clock.now();
  c.log.warn(
    "a punch's time is this terminal's clock, never confirmed by the service, and cannot be true: held for a person",
    { punchId: item.id, why },
  );
  // Nothing brings it back by itself but a re-timing by its boot's anchor (store/punches/punch-times.ts).
  c.outbox.markHeld(item.id, now, 'clock_unverified', why, now);
  c.onEvent({ type: 'held', punchId: item.id, reason: why });
  return now;
}
