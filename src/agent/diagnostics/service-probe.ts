/**
 * The doctor's one request to the service: a read-only GET (`GET /sites/{id}` when a site is set,
 * which also answers "is the site there"; else the first one-employee page), with the token the
 * terminal would use, and this machine's clock read on both sides of it.
 */
import { ApiClient, type ApiClientOptions, type ApiOutcome } from '../../api/client.js';
import type { ApiNetwork } from '../../api/dispatcher.js';
import type { SiteRecord } from '../../api/roster-records.js';
import type { Clock } from '../../domain/time/clock.js';
import { FileTokenStore } from '../../store/private-file.js';

export type { ApiOutcome } from '../../api/client.js';
/** Whether the service honours the site filter, as the last roster sync found. */
export type { SiteFilterCheck } from '../../sync/roster/site-filter-check.js';

/** The two reads the doctor may make; ApiClient in production, a stand-in in unit tests. */
export type DoctorApi = {
  getSite(siteId: string): Promise<ApiOutcome<SiteRecord>>;
  probe(): Promise<ApiOutcome<unknown>>;
  close(): Promise<void>;
};
export type DoctorApiFactory = (opts: ApiClientOptions) => DoctorApi;
export const realApi: DoctorApiFactory = (opts) => new ApiClient(opts);

/** What the one request brought back, with this machine's wall clock read on both sides of it. */
export type ServiceProbe = {
  request: string;
  tokenFrom: string;
  outcome: ApiOutcome<unknown>;
  site: SiteRecord | null;
  serverDate: number | null;
  /** Without a usable `serverDate`: what the answer's `Date` said (null: none, or no answer). */
  dateHeader?: string | null;
  sentAt: number;
  receivedAt: number;
};

/**
 * The token saved from the admin screen in the data directory's 0600 file, or null when none was.
 * Throws when one is there but cannot be used (the message says why). One kept in Electron's
 * secret store cannot be read outside the app.
 */
export function savedFileToken(dataDir: string): string | null {
  return new FileTokenStore(dataDir).load();
}

export async function probeService(
  api: Pick<ApiClientOptions, 'baseUrl' | 'timeoutMs' | 'dialect'>,
  token: { token: string; from: string },
  siteId: string | null,
  clock: Clock,
  makeApi: DoctorApiFactory,
  network?: ApiNetwork,
): Promise<ServiceProbe> {
  let serverDate: number | null = null;
  let dateHeader: string | null = null;
  // The way the terminal goes (proxy, CA file): what works here works for it.
  const client = makeApi({
    ...api,
    token: token.token,
    onServerDate: (d) => (serverDate = d),
    onNoServerDate: (h) => (dateHeader = h),
    ...(network ? { network } : {}),
  });
  const sentAt = clock.now();
  try {
    const outcome = siteId ? await client.getSite(siteId) : await client.probe();
    const receivedAt = clock.now();
    const site = siteId && outcome.kind === 'ok' ? (outcome.value as SiteRecord) : null;
    return {
      request: siteId ? `GET /sites/${siteId}` : 'GET /employees',
      tokenFrom: token.from,
      outcome,
      site,
      serverDate,
      dateHeader,
      sentAt,
      receivedAt,
    };
  } finally {
    await client.close();
  }
}
