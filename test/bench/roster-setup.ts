/**
 * What the parts of the roster bench (roster.bench.ts) share: the roster sizes, the rates of the
 * mock and of the agent, the time limits, the units the figures are printed in, and the shape of
 * a part's share of the one result.
 */
import type { Result } from './report.js';

export const EMPLOYEES = 100_000;
export const CHILD_LIMIT_MS = 300_000;

export const SYNC_EMPLOYEES = 10_000;
export const SYNC_LIMIT_MS = 30_000;

/** The mock's rule: present, but never reached. */
export const MOCK_RULE = { limit: 1_000_000, windowMs: 60_000 };
/** The agent's own budget must not be the limit either: the config's largest limit, per second. */
export const AGENT_RATE = { limit: 10_000, windowMs: 1_000 };
/** The configuration default: how a terminal runs at a site. */
export const PRODUCTION_RATE = { limit: 60, windowMs: 60_000 };

export const MIB = 1024 * 1024;
export const mib = (bytes: number) => bytes / MIB;

/** One measurement's tables, targets, notes and raw numbers, in the order the bench prints them. */
export type RosterPart = Pick<Result, 'tables' | 'targets' | 'notes' | 'raw'>;
