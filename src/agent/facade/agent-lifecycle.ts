/**
 * The order the agent's parts start and stop in: what a previous run left is recovered before
 * sending starts, capture comes before the whole-file checks, and the database closes last.
 */
import type { AgentParts } from './agent-parts.js';
import type { ClockWatch } from '../time/clock-watch.js';

export type StartOptions = { roster?: boolean; awaitRosterIfEmpty?: boolean };

export async function startParts(
  p: AgentParts,
  clockWatch: ClockWatch,
  rosterDone: () => void,
  opts: StartOptions,
): Promise<void> {
  const recovered = p.outbox.recoverInterrupted(p.clock.now());
  if (recovered > 0)
    p.log.warn('punches interrupted mid-send by the last stop will be checked on the server first', {
      count: recovered,
    });
  // A clock stepped back while no agent ran left retries hours ahead: those are due now.
  const clamped = p.outbox.clampDeadlines(p.clock.now(), p.maxRetryAheadMs);
  if (clamped > 0)
    p.log.warn('retries scheduled beyond the longest back-off (the clock was stepped back while stopped) are due now', {
      count: clamped,
    });
  clockWatch.start();
  p.uploader.start();
  for (const r of p.readers) r.start();
  // Taking punches from here on: the check of the whole file comes after, in the background.
  p.integrity.start();
  p.journal.start();
  p.retention.start();
  for (const j of p.jobs) j.start();
  if (opts.roster === false) return;
  const first = p.keeper.start().finally(rosterDone);
  if (opts.awaitRosterIfEmpty && p.roster.size() === 0) await first;
}

export async function stopParts(p: AgentParts, clockWatch: ClockWatch): Promise<void> {
  clockWatch.stop();
  p.keeper.stop();
  p.integrity.stop();
  // Ends at its next batch: nothing of it runs once the database is closed.
  await p.retention.stop();
  await p.journal.stop();
  await Promise.all([...p.readers.map((r) => r.stop()), ...p.jobs.map((j) => j.stop())]);
  await p.uploader.stop();
  await p.onClose();
}
