/**
 * `timeclock flush` and the tests' drain: sends what is due and waits until nothing is left, or
 * sending cannot go on (token refused, service unreachable), or the time is up.
 */
import type { Clock, Sleep } from '../../domain/time/clock.js';
import type { Outbox } from '../../store/punches/outbox.js';
import type { RateBudget } from '../../sync/window/rate-budget.js';
import type { Uploader } from '../../sync/delivery/uploader.js';
import type { AgentStatus } from '../status/status.js';

export type FlushOutcome = {
  done: boolean;
  /** Why sending cannot go on now, when it stopped short. */
  blockedBy: string | null;
  queue: AgentStatus['queue'];
};

export type FlushOptions = { maxWaitMs?: number; unreachableAfterFailures?: number };

export type FlushParts = {
  clock: Clock;
  sleep: Sleep;
  outbox: Pick<Outbox, 'counts'>;
  budget: Pick<RateBudget, 'pause'>;
  uploader: Pick<Uploader, 'wake'>;
  /** Why sending cannot go on after that many failures in a row, or null (status-recorder.ts). */
  blockedBy: (failuresLimit: number) => string | null;
};

export async function flushQueue(p: FlushParts, opts: FlushOptions = {}): Promise<FlushOutcome> {
  const deadline = p.clock.now() + (opts.maxWaitMs ?? 10 * 60_000);
  const failuresLimit = opts.unreachableAfterFailures ?? 3;
  p.uploader.wake();
  for (;;) {
    const queue = p.outbox.counts();
    if (queue.pending + queue.sending + queue.in_doubt === 0) return { done: true, blockedBy: null, queue };
    const pause = p.budget.pause();
    if (pause?.reason === 'auth') return { done: false, blockedBy: 'the service refused the API token', queue };
    const blockedBy = p.blockedBy(failuresLimit);
    if (blockedBy !== null) return { done: false, blockedBy, queue };
    if (p.clock.now() >= deadline) return { done: false, blockedBy: 'time limit reached', queue };
    await p.sleep(50);
  }
}
