import type { Config } from '../../config.js';
import { AuditLog } from '../../store/roster/audit-log.js';
import { openDatabase, type WritableDb } from '../../store/database.js';
import { Identities } from '../../store/roster/identities.js';
import { Pins } from '../../store/roster/pins.js';
import { IdentityAdmin } from './identity-admin.js';
import type { Runtime } from '../host/runtime.js';

/**
 * Enrollment and PIN administration on the database alone, without the agent's lock or the
 * network, so `timeclock enroll` and `timeclock pin` work beside a running terminal.
 */
export function buildIdentityAdmin(config: Config, rt: Runtime): { admin: IdentityAdmin; close(): void } {
  const db = openDatabase(config.dataDir);
  const audit = new AuditLog(db);
  return {
    admin: new IdentityAdmin({
      identities: new Identities(db),
      pins: pinStore(db, config, rt, audit),
      audit,
      clock: rt.clock,
    }),
    close: () => db.close(),
  };
}

/** The PIN store with the configured lockout, for the agent and the command line. */
export function pinStore(db: WritableDb, config: Config, rt: Runtime, audit: AuditLog): Pins {
  return new Pins({
    db,
    clock: rt.clock,
    policy: { maxFailures: config.pin.maxFailures, lockoutMs: config.pin.lockoutMs },
    audit,
  });
}
