/**
 * What the outbox records when `POST /times` answers: one place for the verdicts on a punch, apart
 * from the uploader's loop that decides when to send. A 403 is not here: telling whether the
 * employee or the token is refused takes another request, which is the uploader's to make.
 */
import type { ApiOutcome } from '../../api/client.js';
import type { Logger } from '../../log.js';
import type { Outbox, PunchRow } from '../../store/punches/outbox.js';
import type { DeliveryHealth } from './delivery-health.js';
import type { UploaderEvent, UploaderOptions } from './uploader-types.js';

export type AnswerContext = {
  outbox: Outbox;
  health: DeliveryHealth;
  log: Logger;
  onEvent: (e: UploaderEvent) => void;
  opts: Pick<UploaderOptions, 'inDoubtGraceMs'>;
};

/** Every answer to a punch but a 403 (the uploader's `onForbidden`). */
export type PunchAnswer = Exclude<ApiOutcome<{ remoteId: string | null }>, { kind: 'forbidden' }>;

/** Records `res`, the answer to sending `item`, that arrived at `now`. */
export function recordPunchAnswer(ctx: AnswerContext, item: PunchRow, res: PunchAnswer, now: number): void {
  const { outbox, health } = ctx;
  switch (res.kind) {
    case 'ok':
      outbox.markSent(item.id, now, res.value.remoteId, 'created');
      ctx.onEvent({ type: 'sent', punchId: item.id });
      return;
    case 'rate_limited':
      health.rateLimited(res, now);
      outbox.markPending(item.id, now, now, '429 rate limited');
      return;
    case 'not_sent':
    case 'server_error':
      outbox.markPending(item.id, now, health.blockedUntil, res.error, true);
      return;
    case 'setup':
      outbox.markPending(item.id, now, health.blockedUntil, res.reason);
      return;
    case 'unknown':
      // 409 too: the service may already have it. Look before anything is sent again.
      ctx.log.warn('punch outcome unknown; will check the server before any resend', {
        punchId: item.id,
        error: res.error,
      });
      outbox.markInDoubt(item.id, now, now + ctx.opts.inDoubtGraceMs, res.error);
      return;
    case 'refused':
      ctx.log.warn('punch rejected by the service', { punchId: item.id, reason: res.reason });
      outbox.markRejected(item.id, now, res.reason);
      ctx.onEvent({ type: 'rejected', punchId: item.id, reason: res.reason });
      return;
    case 'auth':
      outbox.markPending(item.id, now, now, res.reason);
      health.authRefused(res.reason, now);
      return;
  }
}
