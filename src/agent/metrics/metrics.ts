/**
 * The terminal's Prometheus metrics, read from the agent's status when scraped: no timer of ours
 * runs between scrapes. A registry of its own (never prom-client's global one), so two agents in
 * one process (tests) or a library that registers globally cannot collide. Labels carry only
 * states, request kinds, HTTP statuses, configured reader names, the version and the terminal id:
 * never a name, badge code, CPF or the token.
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { punchStates } from '../../domain/punch/punch.js';
import type { Agent } from '../facade/agent.js';
import type { AgentStatus } from '../status/status.js';

export type MetricsAgent = Pick<Agent, 'status' | 'requestCounts' | 'captureCounts'>;

export type AgentMetrics = {
  contentType: string;
  /** The text exposition, from one status read. */
  scrape(): Promise<string>;
};

export function agentMetrics(agent: MetricsAgent, opts: { processMetrics?: boolean } = {}): AgentMetrics {
  const register = new Registry();
  if (opts.processMetrics ?? true) collectDefaultMetrics({ register });
  // One status per scrape for every gauge (prom-client collects metric by metric).
  let current: AgentStatus | null = null;
  const status = (): AgentStatus => (current ??= agent.status());
  const registers = [register];

  new Gauge({
    name: 'timeclock_punches',
    help: 'Punches in the outbox by state (sent and rejected are kept until their retention ends).',
    labelNames: ['state'],
    registers,
    collect() {
      const q = status().queue;
      for (const state of punchStates) this.set({ state }, q[state]);
    },
  });
  // Timestamps, not ages: an alert computes `time() - x`, and a stale scrape cannot make a wait look short.
  gauge(
    'timeclock_oldest_pending_timestamp_seconds',
    'When the oldest punch not yet delivered (pending, sending or in doubt) was taken; NaN when none waits.',
    (s) => (s.oldestUnsentAgeMs === null ? NaN : (s.now - s.oldestUnsentAgeMs) / 1000),
  );
  gauge(
    'timeclock_last_delivery_timestamp_seconds',
    'When a punch was last delivered to the service (among those still in the database); NaN when none.',
    (s) => (s.lastDeliveryAt == null ? NaN : s.lastDeliveryAt / 1000),
  );
  new Counter({
    name: 'timeclock_punches_captured_total',
    help: 'Punches taken at this terminal since start, by outcome: registered, repeat, a kept punch (awaiting_roster, unknown_code, held_*), or why it was refused (storage_failed: it could not be saved).',
    labelNames: ['outcome'],
    registers,
    collect() {
      this.reset();
      for (const c of agent.captureCounts()) this.inc({ outcome: c.outcome }, c.count);
    },
  });
  gauge(
    'timeclock_unresolved_punches',
    'Punches of codes not matched to an employee yet, kept until a roster sync matches them (held punches: timeclock_punches{state="held"}).',
    (s) => s.unresolved.count,
  );
  gauge(
    'timeclock_journal_verify_ok',
    "The last verification of the evidence journal's hash chains: 1 whole, 0 broken; NaN before the first.",
    (s) => (s.journal?.lastVerify ? (s.journal.lastVerify.ok ? 1 : 0) : NaN),
  );
  gauge(
    'timeclock_journal_verify_timestamp_seconds',
    "When the evidence journal's chains were last verified; NaN before the first.",
    (s) => (s.journal?.lastVerify ? s.journal.lastVerify.at / 1000 : NaN),
  );
  gauge(
    'timeclock_disk_free_bytes',
    'Free bytes for the data directory; a full disk refuses punches. NaN when the file system cannot be asked.',
    (s) => s.storage?.freeBytes ?? NaN,
  );
  new Counter({
    name: 'timeclock_requests_total',
    help: 'Requests to the time-and-attendance service since start, by kind and HTTP status ("error": no answer).',
    labelNames: ['kind', 'status'],
    registers,
    collect() {
      this.reset();
      for (const c of agent.requestCounts()) this.inc({ kind: c.kind, status: c.status }, c.count);
    },
  });
  gauge('timeclock_rate_window_used', 'Requests counted in the current sliding rate window.', (s) => s.rateWindow.used);
  gauge('timeclock_rate_limit_current', 'Requests allowed per rate window now.', (s) => s.rateWindow.limit);
  gauge('timeclock_roster_employees', 'Employees in the local roster.', (s) => s.roster.size);
  gauge(
    'timeclock_roster_last_sync_timestamp_seconds',
    'When the roster was last synced successfully; 0 when it never was (an alert on age fires at once).',
    (s) => (s.roster.lastSync?.lastOkAt ?? 0) / 1000,
  );
  gauge(
    'timeclock_clock_skew_seconds',
    "The service's clock minus this terminal's (positive: the terminal is slow); NaN until the service answered.",
    (s) => (s.clockSkewMs === null ? NaN : s.clockSkewMs / 1000),
  );
  gauge(
    'timeclock_database_integrity_ok',
    'The last background integrity check of the database: 1 passed, 0 damaged; NaN before the first or when it could not run.',
    (s) => (s.integrity?.result === 'ok' ? 1 : s.integrity?.result === 'damaged' ? 0 : NaN),
  );
  gauge(
    'timeclock_online',
    'Whether the service answers (1) or not (0: no answer, or only server errors); NaN before the first request.',
    (s) => (s.online === null ? NaN : s.online ? 1 : 0),
  );
  new Gauge({
    name: 'timeclock_reader_connected',
    help: 'Whether each configured badge reader is connected (1) or not (0).',
    labelNames: ['reader'],
    registers,
    collect() {
      this.reset();
      for (const r of status().readers) this.set({ reader: r.name }, r.connected ? 1 : 0);
    },
  });
  new Gauge({
    name: 'timeclock_rate_shared',
    help: "Where this terminal's request slots come from: 1 for the current mode (redis, fallback-local while Redis is out of reach, local without Redis).",
    labelNames: ['mode'],
    registers,
    collect() {
      this.reset();
      this.set({ mode: status().rate?.shared ?? 'local' }, 1);
    },
  });
  gauge(
    'timeclock_terminal_id_conflict',
    'Whether another live terminal announces this terminal id in Redis (1: a cloned data directory or a copied config, see status), else 0.',
    (s) => (s.fleet?.conflict ? 1 : 0),
  );
  new Gauge({
    name: 'timeclock_service_state',
    help: 'Whether the service answers: 1 for the current state (online; errors: it answers with 5xx; offline: no answer); none before the first request.',
    labelNames: ['state'],
    registers,
    collect() {
      this.reset();
      const sv = status().service;
      if (sv) this.set({ state: sv.state }, 1);
    },
  });
  new Gauge({
    name: 'timeclock_route_absent',
    help: 'Read routes the service does not have (404, 405 or 501): 1 each, with the status it answered; asked again once an hour, doubling to a day.',
    labelNames: ['route', 'status'],
    registers,
    collect() {
      this.reset();
      for (const a of status().absentRoutes) this.set({ route: a.route, status: String(a.status) }, 1);
    },
  });
  new Gauge({
    name: 'timeclock_build_info',
    help: 'The terminal software version and this terminal id; always 1.',
    labelNames: ['version', 'terminal'],
    registers,
    collect() {
      this.reset();
      const s = status();
      this.set({ version: s.version, terminal: s.terminalId }, 1);
    },
  });

  gauge(
    'timeclock_service_clock_offset_seconds',
    "The service's Date minus this machine's clock at the last answer with a usable Date (a year: the service's clock is a year ahead); NaN without one.",
    (s) => (s.serviceClock?.offsetMs == null ? NaN : s.serviceClock.offsetMs / 1000),
  );
  new Gauge({
    name: 'timeclock_service_clock_state',
    help: "What the terminal makes of the service's Date: 1 for the current state (ok: it anchors the time; off: NTP-synchronised local time kept; unconfirmed: a far Date waits for a second answer; no_date: none usable, punches go at this terminal's clock).",
    labelNames: ['state'],
    registers,
    collect() {
      this.reset();
      const state = status().serviceClock?.state;
      if (state) this.set({ state }, 1);
    },
  });

  function gauge(name: string, help: string, value: (s: AgentStatus) => number): void {
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(value(status()));
      },
    });
  }

  return {
    contentType: register.contentType,
    async scrape() {
      current = null;
      try {
        return await register.metrics();
      } finally {
        current = null;
      }
    },
  };
}
