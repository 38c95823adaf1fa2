/**
 * `timeclock status` from another process: the terminal's status as its database holds it, read
 * beside a running agent (WAL readers) or with none. What the command line prints and nothing more.
 */
import os from 'node:os';
import type { Config } from '../../config.js';
import { storedTerminalIdOf } from '../../config.js';
import { openDatabase } from '../../store/database.js';
import { Identities } from '../../store/roster/identities.js';
import { Outbox } from '../../store/punches/outbox.js';
import { RateSlots } from '../../store/settings/rate-slots.js';
import { Roster } from '../../store/roster/roster.js';
import { UnresolvedPunches } from '../../store/punches/unresolved.js';
import { readStatus, type AgentStatus } from './status.js';
import { storedSettingsView } from '../settings/stored-settings.js';
import { runningTerminal } from '../host/terminal-data.js';
import { storedFleet } from './fleet-status.js';
import { cameraKey } from '../../store/settings/camera-record.js';
import { readSetting } from '../../store/settings/settings.js';

/**
 * The status of the terminal whose data is in `config.dataDir` (check hasTerminalData first), with
 * whether an agent holds it now. Opened as the agent opens it, so a file of an earlier version is
 * brought up to date first, as it always was by this command.
 */
export function readStoredStatus(config: Config, demo: boolean, now = Date.now()): AgentStatus {
  const db = openDatabase(config.dataDir);
  try {
    const settings = storedSettingsView(db, config, demo);
    const status = readStatus({
      db,
      outbox: new Outbox(db),
      roster: new Roster(db),
      rateSlots: new RateSlots(db),
      identities: new Identities(db),
      unresolved: new UnresolvedPunches(db),
      rule: settings.rateLimit,
      settings,
      now,
      terminalId: storedTerminalIdOf(config),
      rosterRefreshMs: config.roster.refreshMs,
      retention: config.retention,
      signingKeySet: Boolean(config.afd.signingKey),
    });
    status.agentRunning = runningTerminal(config.dataDir) !== null;
    // The window the running agent uses, as it last recorded it; the host is this box's.
    const fleet = storedFleet(db, status.agentRunning);
    if (fleet) status.rate = fleet.rate;
    status.fleet = fleet?.fleet ?? { host: os.hostname(), instanceId: null, conflict: null };
    status.camera =
      config.photo.mode === 'on-punch'
        ? (readSetting(db, cameraKey) ?? { ok: false, problem: null, since: 0, missedPunches: 0 })
        : null;
    return status;
  } finally {
    db.close();
  }
}
