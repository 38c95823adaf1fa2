/**
 * The read routes the service lacks, as the agent learnt them (its database: no request is spent
 * to learn it again), added to the service check: reachable and token accepted, but without
 * GET /timesheets is a warning that says what the terminal does without it.
 */
import type { AbsentRoute } from '../../domain/rate/absent-routes.js';
import { absentRouteLine } from '../../messages/route-text.js';
import { localMinute } from '../status/service-lines.js';
import { warn, type CheckResult } from './result.js';

export function withAbsentRoutes(
  service: CheckResult,
  routes: readonly AbsentRoute[] | undefined,
  now: number,
): CheckResult {
  if (!routes || routes.length === 0) return service;
  const lines = routes.map((a) => absentRouteLine('en', a, now, localMinute));
  const detail = `${service.detail}; ${lines.join('; ')}`;
  return service.status === 'fail' ? { ...service, detail } : warn(service.check, detail);
}
