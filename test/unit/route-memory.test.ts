/**
 * The read routes the service lacks, as the agent keeps them (agent/delivery/route-memory.ts): written where
 * `timeclock status` reads them, and told to whoever shows status (the admin screen's connection tab heard of a
 * second missing route only at the next unrelated change: an e2e test saw one route of two for 10 s).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { routeGateFor } from '../../src/agent/delivery/route-memory.js';
import { configSchema } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { serviceKeys } from '../../src/store/settings/service-records.js';
import { readSetting } from '../../src/store/settings/settings.js';
import { tempDatabase, type TempDatabase } from '../helpers/temp-database.js';

const config = configSchema.parse({
  dataDir: '/tmp/x',
  api: { baseUrl: 'https://api.example.com.br/v2.1', token: 't' },
});
const api = config.api as NonNullable<typeof config.api>;
const refused = (status: number) => ({ kind: 'refused' as const, status, reason: 'no route', serverDate: null });
const ok = { kind: 'ok' as const, status: 200, value: null, serverDate: null };

let open: TempDatabase | null = null;
afterEach(() => {
  open?.close();
  open = null;
});

describe('the routes the service lacks, kept and told', () => {
  it('each change is written for status and told at once; an answer that changes nothing tells nothing', () => {
    open = tempDatabase('timeclock-route-memory-');
    const { db } = open;
    let now = Date.UTC(2026, 10, 30, 12, 0, 0);
    let told = 0;
    const gate = routeGateFor(db, api, { clock: { now: () => now }, log: silentLogger }, () => told++);
    expect(told).toBe(0);

    gate.noteAnswer('GET /timesheets', 'e:1', refused(405));
    expect(told).toBe(1);
    expect(readSetting(db, serviceKeys.absentRoutes)?.routes.map((r) => r.route)).toEqual(['GET /timesheets']);

    gate.noteAnswer('GET /work-leaves', 'e:1', refused(405));
    expect(told).toBe(2);
    expect(
      readSetting(db, serviceKeys.absentRoutes)
        ?.routes.map((r) => r.route)
        .sort(),
    ).toEqual(['GET /timesheets', 'GET /work-leaves']);

    // Another employee's 200 elsewhere changes nothing.
    gate.noteAnswer('GET /sites', 'site', ok);
    expect(told).toBe(2);

    // The route answers again after its pause: gone from status, and told.
    now += 2 * 3_600_000;
    gate.noteAnswer('GET /timesheets', 'e:2', ok);
    expect(told).toBe(3);
    expect(readSetting(db, serviceKeys.absentRoutes)?.routes.map((r) => r.route)).toEqual(['GET /work-leaves']);
  });
});
