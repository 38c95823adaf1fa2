/** What the roster sync needs of the API client: pages of employees and the site record. */
import type { ApiOutcome, EmployeePage } from '../api/client.js';
import type { SiteRecord } from '../api/roster-records.js';

export type RosterApi = {
  getEmployeesPage(page: number, maxResults: number, siteId: string | null, changedSince?: number): Promise<ApiOutcome<EmployeePage>>;
  getSite(siteId: string): Promise<ApiOutcome<SiteRecord>>;
};
