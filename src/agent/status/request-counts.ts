import type { RequestKind } from '../../api/client.js';

export type RequestCount = { kind: RequestKind; status: string; count: number };

/**
 * Requests to the service since start, by kind and HTTP status ("error": no answer). A plain tally
 * the API client reports into, read by metrics on scrape; src/api knows nothing of Prometheus.
 */
export class RequestCounts {
  private readonly counts = new Map<string, RequestCount>();

  note(kind: RequestKind, status: number | 'error'): void {
    const key = `${kind} ${status}`;
    const c = this.counts.get(key);
    if (c) c.count++;
    else this.counts.set(key, { kind, status: String(status), count: 1 });
  }

  list(): RequestCount[] {
    return [...this.counts.values()].map((c) => ({ ...c }));
  }
}
