/** What the admin screen's settings calls (settings.ts) are built from, and the state they start in. */
import type { ApiOutcome } from '../../api/client.js';
import type { SiteRecord } from '../../api/roster-records.js';
import type { Clock } from '../../domain/time/clock.js';
import type { WindowRule } from '../../domain/rate/sliding-window.js';
import type { Logger } from '../../log.js';
import type { DurableDb } from '../../store/database.js';
import type { AuditLog } from '../../store/roster/audit-log.js';
import type { RateBudget } from '../../sync/window/rate-budget.js';
import type { TokenStore } from '../host/token-store.js';
import type { SettingsView } from './stored-settings.js';

/** The calls of the API the settings need. */
export type SettingsApi = {
  setToken(token: string): void;
  checkToken(token: string, siteId: string | null): Promise<ApiOutcome<unknown>>;
  getSite(siteId: string): Promise<ApiOutcome<SiteRecord>>;
};

export type SettingsDeps = {
  /** The admin screen's changes are kept on the durable connection. */
  db: DurableDb;
  audit: AuditLog;
  api: SettingsApi;
  budget: RateBudget;
  tokens: TokenStore;
  clock: Clock;
  log: Logger;
  /** The embedded demo: its token is fixed, and nothing set here reaches a real configuration. */
  demo: boolean;
  /** Stops waiting for the service when the agent stops. */
  stopSignal: AbortSignal;
  /** The runtime parts that follow a change (uploader, roster sync): wired by buildAgent. */
  applyRule(rule: WindowRule): void;
  applySite(siteId: string): void;
  tokenChanged(): void;
  /** Fetches the (new) site's roster; the agent records the outcome. */
  syncRoster(): void;
  /** Something status shows has changed. */
  changed(): void;
};

export type SettingsStart = {
  siteId: string | null;
  rule: WindowRule;
  token: SettingsView['token'];
};
