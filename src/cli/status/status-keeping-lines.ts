/**
 * `timeclock status` on what the terminal keeps: the disk, the database's integrity, the evidence
 * journal, and what retention let go. An alert (damaged file, broken chain) is a line of its own.
 */
import type { AgentStatus } from '../../agent/status/status.js';
import type { Say } from './status-say.js';
import { archiveLines } from './status-archive-lines.js';

/** A full disk refuses punches: said here, not only by doctor and the log (each line only when it applies). */
export function storageLines(say: Say, s: AgentStatus): string[] {
  const st = s.storage;
  if (!st) return [];
  const lines: string[] = [];
  if (st.low && st.freeBytes !== null) {
    const mb = String(Math.floor(st.freeBytes / 1_000_000));
    lines.push(say.label('status.label.diskLow') + say.text('status.diskLow', { mb }));
  }
  const refused = st.refused;
  if (refused) {
    const params = { n: String(refused.count), why: refused.why, ago: say.since(refused.lastAt) };
    lines.push(say.label('status.label.notSaved') + say.text('status.notSaved', params));
  }
  return lines;
}

/** The last background integrity check; a damaged file is an alert, as a refused token is. */
export function integrityLines(say: Say, s: AgentStatus): string[] {
  const c = s.integrity;
  const label = say.label('status.label.database');
  if (!c) return [label + say.text('status.db.notYet', { when: say.soon })];
  const when = say.text('status.db.when', { ago: say.since(c.at), s: say.decimal(c.ms / 1000, 1) });
  if (c.result === 'ok') return [label + say.text('status.db.ok', { when })];
  if (c.result === 'unchecked') {
    const problem = c.problems[0] ?? say.text('status.unknownReason');
    return [label + say.text('status.db.unchecked', { when, problem })];
  }
  return [say.text('status.db.damaged', { when }), ...c.problems.slice(0, 5).map((p) => say.listIndent + p)];
}

/** The evidence journal: the next NSR, and whether its chains verified; a broken one is an alert (punches go on). */
export function journalLines(say: Say, s: AgentStatus): string[] {
  const j = s.journal;
  if (!j) return [];
  return [...restoredLines(say, j), verifyLine(say, j), ...archiveLines(say, s)];
}

/** A restore of the data directory recognised at a start: said beside whatever the chains say. */
function restoredLines(say: Say, j: NonNullable<AgentStatus['journal']>): string[] {
  const r = j.lastRestore;
  if (!r) return [];
  const params = { ago: say.since(r.at), from: String(r.from), to: String(r.to), where: r.where };
  return [say.text('status.journal.restored', params)];
}

function verifyLine(say: Say, j: NonNullable<AgentStatus['journal']>): string {
  const v = j.lastVerify;
  const label = say.label('status.label.journal');
  const nsr = String(j.nextNsr);
  if (!v) return label + say.text('status.journal.notYet', { nsr, when: say.soon });
  const marks = say.text('status.journal.marks', { n: String(v.marks) });
  const facts = say.text('status.journal.facts', { n: String(v.facts) });
  const when = say.text('status.journal.when', { ago: say.since(v.at), marks, facts });
  if (v.ok) return label + say.text('status.journal.ok', { nsr, when });
  return say.text('status.journal.broken', { when, problem: v.problem?.message ?? say.text('status.unknown') });
}

/** What is kept, what retention let go, and the file: `sent` above counts only the delivered punches still here. */
export function retentionLines(say: Say, s: AgentStatus): string[] {
  const r = s.retention;
  const delivered = say.text('status.delivered', {
    ever: String(r.deliveredEver),
    kept: String(s.queue.sent),
    deleted: String(r.deletedEver.punches),
    days: String(r.deliveredDays),
    auditDays: String(r.auditDays),
  });
  const file = say.text('status.file', { size: say.mb(r.file.bytes), free: say.mb(r.file.freeBytes) });
  const lines = [
    say.label('status.label.delivered') + delivered,
    say.label('status.label.lastPruned') + prunedValue(say, r.lastPass),
    say.label('status.label.databaseFile') + file,
  ];
  if (r.file.autoVacuum !== 'incremental') lines.push(say.valueIndent + say.text('status.file.legacy'));
  return lines;
}

function prunedValue(say: Say, p: AgentStatus['retention']['lastPass']): string {
  if (p === null) return say.text('status.pruned.never', { when: say.soon });
  const pass = say.text('status.pruned', {
    ago: say.since(p.at),
    punches: String(p.deleted.punches),
    journal: String(p.deleted.journal),
    audit: String(p.deleted.audit),
    freed: say.mb(p.freedBytes),
  });
  if (p.outcome === 'done') return pass;
  if (p.outcome === 'stopped') return pass + say.text('status.pruned.stopped');
  return pass + say.text('status.pruned.failed', { error: p.error ?? say.text('status.unknown') });
}
