/** What the roster sync needs of the API client: pages of employees, the site record and how many sites there are. */
import type { ApiOutcome, EmployeePage } from '../../api/client.js';
import type { SiteRecord } from '../../api/roster-records.js';

export type RosterApi = {
  getEmployeesPage(
    page: number,
    maxResults: number,
    siteId: string | null,
    changedSince?: number,
  ): Promise<ApiOutcome<EmployeePage>>;
  getSite(siteId: string): Promise<ApiOutcome<SiteRecord>>;
  /**
   * How many active sites the account has (`GET /sites`' total, or its one page's items); null when it does not say.
   */
  countSites(): Promise<ApiOutcome<number | null>>;
};
