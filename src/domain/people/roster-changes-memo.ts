/**
 * What the terminal knows of the service's filter on `_updated`, for one site. Declared here, in
 * domain, because two layers hold it: sync/roster/roster-changes.ts decides with it and
 * store/settings/setting-keys.ts keeps it between runs; one declaration keeps the two the same.
 */
export type ChangesMemo = {
  siteId: string | null;
  /** 'changes': a probe showed the filter works; 'full': it did not (or the answers lacked what it needs). */
  mode: 'changes' | 'full';
  /** Service time (its Date header) at the start of the last complete refresh: changes are asked from there. */
  since: number;
  /** Service time of the last full sync. */
  fullAt: number;
  /** Records of the last full sync the terminal could not use: the count check allows for them. */
  unusable: number;
};
