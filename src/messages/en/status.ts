/**
 * `timeclock status` (the command line's view of the terminal, issue 28): its labels, padded to one
 * column per language by the CLI, and its sentences. Values the agent recorded in English (error
 * messages, reasons from the service) are shown as they came.
 */
import type { Text } from '../text.js';

export const enStatus = {
  'status.label.version': 'version:',
  'status.label.terminal': 'terminal:',
  'status.label.agent': 'agent:',
  'status.label.connection': 'connection:',
  'status.label.queue': 'queue:',
  'status.label.oldestUnsent': 'oldest unsent:',
  'status.label.rateWindow': 'rate window:',
  'status.label.sharedWindow': 'shared window:',
  'status.label.idConflict': 'ID CONFLICT:',
  'status.label.windowKey': 'window key:',
  'status.windowKey': '{key} (from {from})',
  'status.label.roster': 'roster:',
  'status.label.site': 'site:',
  'status.label.badges': 'badges:',
  'status.label.clockSkew': 'clock skew:',
  'status.label.serviceClock': 'service clock:',
  'status.label.database': 'database:',
  'status.label.journal': 'journal:',
  'status.label.delivered': 'delivered:',
  'status.label.lastPruned': 'last pruned:',
  'status.label.databaseFile': 'database file:',
  'status.label.apiToken': 'API token:',
  'status.label.held': 'held:',
  'status.label.warning': 'warning:',
  'status.label.sameMinute': 'same minute:',
  'status.label.lastError': 'last error:',
  'status.label.diskLow': 'DISK LOW:',
  'status.label.notSaved': 'NOT SAVED:',
  'status.label.nextSync': 'next sync:',
  'status.label.siteFilter': 'SITE FILTER:',
  'status.label.skipped': 'skipped:',
  'status.label.notAllowed': 'not allowed:',
  'status.label.rosterHealth': 'roster health:',
  'status.label.noCpf': 'no CPF:',
  'status.label.noEmployer': 'no employer:',
  'status.label.unmatched': 'unmatched:',
  'status.never': 'never',
  'status.none': 'none',
  'status.unknown': 'unknown',
  'status.unknownReason': 'unknown reason',
  'status.na': 'n/a',
  'status.ago.s': '{s}s ago',
  'status.ago.m': '{m}m {s}s ago',
  'status.ago.h': '{h}h {m}m ago',
  'status.ago.d': '{d}d {h}h ago',
  'status.since': ' (since {ago})',
  'status.shortly': 'shortly',
  'status.afterStart': 'after it starts',
  'status.mb': '{n} MB',
  'status.onHost': '{id} on host {host}',
  'status.agent.running': 'running',
  'status.agent.stopped': 'not running (status from the database)',
  'status.conn.errors': 'SERVICE ANSWERING ERRORS: punches are kept, sending backs off',
  'status.conn.errorsWhy': 'SERVICE ANSWERING ERRORS ({why}): punches are kept, sending backs off',
  'status.conn.none': 'no request yet',
  'status.conn.online': 'online',
  'status.conn.offline': 'OFFLINE',
  'status.conn.offlineWhy': 'OFFLINE ({why})',
  'status.conn.lastAnswer': '; last answer {ago}',
  'status.queue':
    'pending {pending}, sending {sending}, in doubt {in_doubt}, sent {sent}, rejected {rejected}, held {held}',
  'status.rateWindow': '{used}/{limit} used (per {seconds}s)',
  'status.rate.unknown': 'not known (the running agent did not record it)',
  'status.rate.local': "this terminal alone (no Redis configured): it adapts to the account's limit on 429s",
  'status.rate.redis': "shared with the account's terminals in Redis",
  'status.rate.joining':
    "joining the account's window in Redis (nothing is sent until it answers, or for at most a few seconds)",
  'status.rate.fallback': 'LOCAL FALLBACK: {why}; this terminal sends at its own share ({setting}) — {fix}',
  'status.rate.fallbackSaid':
    'LOCAL FALLBACK: {why} ({said}); this terminal sends at its own share ({setting}) — {fix}',
  'status.redisWhy.connecting': 'Redis has not answered since the start',
  'status.redisWhy.unreachable': 'Redis is unreachable',
  'status.redisWhy.auth': 'Redis refused the password',
  'status.redisWhy.timeout': 'Redis stopped answering in time',
  'status.redisWhy.bad_answer': 'Redis answers what the scripts never return',
  'status.redisWhy.error': 'Redis answered with an error',
  'status.redisFix.connecting': 'check {setting} and the network',
  'status.redisFix.unreachable': 'check {setting} (host and port), the network and that Redis runs',
  'status.redisFix.auth': 'check the password in {setting} (redis://:PASSWORD@host:6379)',
  'status.redisFix.timeout': 'check the load on Redis and the network',
  'status.redisFix.bad_answer': 'check that {setting} points at a Redis (not a proxy or another service)',
  'status.redisFix.error': 'check the Redis log',
  'status.conflict':
    'terminal id {id} is also used by {others}; this one runs on host {host} (instance {instance}). ' +
    'Give each terminal its own id: delete the file terminal-id in the copied data directory and restart it, ' +
    'or set a distinct terminalId',
  'status.conflictOther': 'host {host} (instance {instance}, pid {pid}, started {started})',
  'status.roster': '{n} employees, last sync {ago}',
  'status.roster.failed': ' (last attempt failed: {error})',
  'status.roster.syncing': ' (syncing: page {done}/{total})',
  'status.site.none': 'all active employees (no site configured)',
  'status.badges': '{n} enrolled',
  'status.reader': 'reader {name}: {state}, {counts}',
  'status.reader.connected': 'connected ({device})',
  'status.reader.lost': 'NOT CONNECTED',
  'status.reader.lostSince': 'NOT CONNECTED since {ago}',
  'status.reader.counts': '{scans} scans, last {last}, {errors} dropped, {disconnects} disconnects',
  'status.skew.none': 'none measurable (within ±1 s of the service)',
  'status.skew.off': '{s}s against the service',
  'status.svcClock.ahead': 'ahead',
  'status.svcClock.behind': 'behind',
  'status.svcClock.off':
    "the service's clock is off by {offset} ({way}, more than {setting} {bound}); " +
    "this terminal's clock is NTP-synchronised and is kept: punches carry this terminal's time, " +
    'marked service_clock_off',
  'status.svcClock.noDate':
    "the service sends no usable Date header; punches sent at this terminal's clock, marked unanchored",
  'status.svcClock.noDateHeader':
    'the service sends no usable Date header (Date: "{header}"); ' +
    "punches sent at this terminal's clock, marked unanchored",
  'status.svcClock.agrees': "the service's clock agrees with this terminal's",
  'status.svcClock.inUse': "the service's clock is in use: {offset} {way} of this terminal's (within {setting})",
  'status.svcClock.inUseConfirmed':
    "the service's clock is in use: {offset} {way} of this terminal's (within {setting}, or confirmed by a second answer)",
  'status.svcClock.unconfirmed':
    "the service's Date is {offset} {way} of the time in force; " +
    'waiting for a second answer to agree before it is used',
  'status.db.notYet': 'not checked yet (the terminal checks it {when}, then daily)',
  'status.db.when': '{ago}, took {s} s',
  'status.db.ok': 'integrity ok (checked {when})',
  'status.db.unchecked': 'integrity check could not run ({when}): {problem}',
  'status.db.damaged':
    'DATABASE DAMAGED: the integrity check failed ({when}); punches are still taken — ' +
    'copy the file aside for support and see README "Troubleshooting":',
  'status.journal.restored':
    'JOURNAL RESTORED {ago}: the data directory was put back from an older copy; ' +
    'NSRs {from}-{to} are skipped (seen in {where})',
  'status.journal.notYet': 'next NSR {nsr}; not verified yet (the terminal checks it {when})',
  'status.journal.when': '{ago}, {marks}, {facts}',
  'status.journal.marks': { one: '{n} mark', other: '{n} marks' },
  'status.journal.facts': { one: '{n} fact', other: '{n} facts' },
  'status.journal.ok': 'next NSR {nsr}; chains verified ({when})',
  'status.journal.broken':
    'JOURNAL DOES NOT VERIFY ({when}): {problem}; punches are still taken — ' +
    'keep a copy of the data directory for support',
  'status.delivered':
    '{ever} in all: {kept} kept here, {deleted} deleted after {days} days (audit log kept {auditDays} days)',
  'status.pruned.never': 'never (the terminal prunes {when}, then daily)',
  'status.pruned': '{ago}: {punches} punches, {journal} journal rows, {audit} audit lines; {freed} given back',
  'status.pruned.stopped': ' (stopped by the agent stopping: goes on at the next start)',
  'status.pruned.failed': ' (FAILED: {error})',
  'status.file': '{size}, {free} of it free',
  'status.file.legacy':
    'made by an earlier version: space freed is reused, not given back; ' +
    '`timeclock data compact` (terminal stopped) shrinks it and converts it once',
  'status.tokenRefused': 'TOKEN REFUSED: {reason} ({ago}); sending paused, punches are kept',
  'status.sendingPaused': 'sending paused: {reason} until {when}',
  'status.setupProblem': 'SET-UP PROBLEM: {reason} ({ago}); sending backs off, punches are kept — check {setting}',
  'status.notOnService': 'not on service: {line}',
  'status.held': '{n} punches kept and not sent (timeclock held list)',
  'status.sameMinute':
    '{n} punches share their local minute with another of the same employee (a DST change): ' +
    'both were kept and sent; payroll should check:',
  'status.lastError': '{message} ({ago})',
  'status.diskLow': '{mb} MB free for the data directory: free space now, punches need it',
  'status.notSaved': '{n} punches refused since the agent started: {why} (last {ago})',
  'status.employeeList':
    'EMPLOYEE LIST: none complete yet — unknown codes are kept and matched when one arrives (none is refused)',
  'status.nextSync.changes': ' (changes only: the service filters on _updated)',
  'status.heldShrink':
    'SMALLER ROSTER HELD: a sync found {n} employees, less than half of the {inUse} in use; ' +
    'the current one stays until a later sync agrees{recheck} or a manager confirms on the admin screen',
  'status.siteFilter':
    'the service counts as many employees with the site filter as without: ' + 'it may ignore it (check {setting})',
  'status.skipped': '{n} records of the last sync the terminal cannot use:',
  'status.skipped.no_ids': 'no _id and no external_id',
  'status.skipped.other': 'not a JSON object',
  'status.notAllowed':
    '{n} employees may not record by API (allow_external_api_record false); their punches are held here:',
  'status.notAllowed.held': '{n} held',
  'status.health':
    '{schedule} without work schedule, {employer} without employer ' +
    '(the service will not show their punches until both are set), ' +
    "{zone} with a time zone the terminal cannot use (the site's is used):",
  'status.health.missing': 'missing {what}',
  'status.health.and': ' and ',
  'status.missing.work_schedule': 'work_schedule',
  'status.missing.employer': 'employer',
  'status.missing.timezone': 'timezone',
  'status.noCpf': {
    one: '{n} worker without a CPF: their punches are kept, the AFD shows twelve zeros for them:',
    other: '{n} workers without a CPF: their punches are kept, the AFD shows twelve zeros for them:',
  },
  'status.noEmployer': {
    one: '{n} worker whose employer the service does not name: receipts and AFD use the configured employer:',
    other: '{n} workers whose employer the service does not name: receipts and AFD use the configured employer:',
  },
  'status.noEmployer.unread': 'employer not read yet',
  'status.noEmployer.unknown': 'the service has no such employer',
  'status.unmatched': '{n} punches of unknown codes kept (oldest {oldest}), matched at the next roster sync',
  'status.label.archives': 'archives:',
  'status.archives.none': 'none yet',
  'status.archives.kept': { one: '{n} month ({from} to {to}), {size}', other: '{n} months ({from} to {to}), {size}' },
  'status.archives.neverRun': 'not run yet',
  'status.archives.run': 'last run {ago}: {archives} written, {marks} marks',
  'status.archives.runFailed': 'last run {ago} FAILED: {error}',
  'status.archives.missing':
    'ARCHIVE MISSING: {name} (its marks have left the database; put the file back from a copy)',
  'status.archives.changed':
    'ARCHIVE CHANGED: {name} is not the file that was sealed (journal verify names the difference)',
  'status.archives.unsigned': 'archive unsigned: {name} was sealed without a signature although {setting} is set',
} as const satisfies Record<string, Text>;
