/**
 * Whether the service answers (domain/rate/service-state.ts), fed by every request the API client makes
 * and by the liveness check, and what follows when it answers again: delivery's back-off ends at
 * once (sync/delivery/uploader.ts `serviceBack`). The state is recorded for status and the screen.
 */
import type { RequestKind } from '../../api/client.js';
import type { Clock } from '../../domain/time/clock.js';
import { ServiceState, type ServiceObservation, type ServiceStateRecord } from '../../domain/rate/service-state.js';
import type { Logger } from '../../log.js';
import type { Reachability } from '../../sync/delivery/liveness.js';

export type ServiceWatchDeps = {
  clock: Clock;
  log: Logger;
  /** The state changed: record it (status, the screen's online line). */
  changed: (r: ServiceStateRecord) => void;
  /** An HTTP answer arrived (any status): "last answered" for the connection tab. */
  answered: (at: number) => void;
  /**
   * The service is back: end delivery's back-off now. `probe`: nothing has answered yet (only its
   * host takes connections again), so one cheap request should be made when no punch is due.
   */
  back: (opts: { probe: boolean }) => void;
};

export class ServiceWatch {
  private readonly state = new ServiceState();
  private hostReachable: boolean | null = null;

  constructor(private readonly d: ServiceWatchDeps) {}

  get current(): ServiceStateRecord | null {
    return this.state.current;
  }

  /** Whether the service answers now (false before any answer). */
  isOnline(): boolean {
    return this.state.current?.state === 'online';
  }

  /** Every request of the API client: its status, or 'error' when no answer came. */
  request(_kind: RequestKind, status: number | 'error', error?: string): void {
    const now = this.d.clock.now();
    if (status !== 'error') this.d.answered(now);
    this.observe(status === 'error' ? { kind: 'lost', reason: error ?? 'no answer' } : { kind: 'answer', status }, now);
  }

  /** The liveness check's verdict changed. A host back while the service is not known to answer: ask it now. */
  host(r: Reachability): void {
    const cameBack = r.reachable && this.hostReachable === false;
    this.hostReachable = r.reachable;
    this.observe({ kind: 'host', reachable: r.reachable, reason: r.reason }, r.at);
    if (cameBack && !this.isOnline()) this.d.back({ probe: true });
  }

  private observe(o: ServiceObservation, now: number): void {
    const was = this.state.current?.state ?? null;
    const rec = this.state.observe(o, now);
    if (!rec) return;
    if (rec.state === 'online') this.d.log.info('the service answers', was === null ? {} : { was });
    else
      this.d.log.warn(
        rec.state === 'errors' ? 'the service answers with server errors' : 'the service does not answer',
        { reason: rec.reason },
      );
    this.d.changed(rec);
    // Whatever answered (a roster page, a probe, a punch): the queue need not wait out its back-off.
    if (rec.state === 'online' && was !== null) this.d.back({ probe: false });
  }
}
