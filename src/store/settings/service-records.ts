/**
 * What the agent learnt of the service it talks to, kept for status (read by `timeclock status`
 * and doctor in other processes): the read routes it lacks, and whether it answers now.
 */
import { z } from 'zod';
import { READ_ROUTES, type AbsentRoute } from '../../domain/rate/absent-routes.js';
import type { ServiceStateRecord } from '../../domain/rate/service-state.js';
import { recordKey } from './setting-keys.js';

/** The routes the service lacked, with the service and dialect they were learnt on (another one learns again). */
export type AbsentRoutesRecord = { service: string; routes: AbsentRoute[] };

const num = z.number();

const absentRouteSchema = z.looseObject({
  route: z.enum(READ_ROUTES),
  status: num,
  since: num,
  lastAt: num,
  nextAt: num,
  pauses: num,
});

export const serviceKeys = {
  absentRoutes: recordKey<AbsentRoutesRecord>(
    'absent_routes',
    z.looseObject({ service: z.string(), routes: z.array(absentRouteSchema) }),
  ),
  serviceState: recordKey<ServiceStateRecord>(
    'service_state',
    z.looseObject({ state: z.enum(['online', 'errors', 'offline']), since: num, reason: z.string().nullable() }),
  ),
};
