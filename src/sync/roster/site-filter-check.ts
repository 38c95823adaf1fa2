/** Whether the service honours the site filter of `GET /employees`, from totals it already gives. */
import type { ApiOutcome } from '../../api/client.js';
import type { RosterApi } from './roster-api.js';

/** See contract `status.roster.siteFilter`. */
export type SiteFilterCheck = 'verified' | 'suspect' | 'unknown' | 'one_site';

/**
 * The account's employee total against the site's (`siteTotal`) and, when they are equal, how many
 * sites the account has: equal totals are what an account of one site gives, so they alarm only
 * on an account of several. `call` is the sync's (budget, cancellation); its requests are counted.
 */
export async function checkSiteFilter(
  api: RosterApi,
  siteTotal: number | null,
  call: <T>(fn: () => Promise<ApiOutcome<T>>) => Promise<ApiOutcome<T> | null>,
): Promise<{ result: SiteFilterCheck; requests: number }> {
  if (siteTotal === null) return { result: 'unknown', requests: 0 };
  const res = await call(() => api.getEmployeesPage(1, 1, null));
  if (!res || res.kind !== 'ok' || res.value.meta.total === null) return { result: 'unknown', requests: 1 };
  if (res.value.meta.total > siteTotal) return { result: 'verified', requests: 1 };
  const sites = await call(() => api.countSites());
  if (!sites || sites.kind !== 'ok' || sites.value === null) return { result: 'unknown', requests: 2 };
  return { result: sites.value <= 1 ? 'one_site' : 'suspect', requests: 2 };
}
