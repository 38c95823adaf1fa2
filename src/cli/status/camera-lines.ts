/** Issue 31: `timeclock status`'s camera line, with photo.mode on-punch: working, or out and why ("sem foto"). */
import type { AgentStatus } from '../../agent/status/status.js';
import type { Say } from './status-say.js';

export function cameraLines(say: Say, s: AgentStatus): string[] {
  const cam = s.camera;
  if (!cam) return [];
  const value = cam.ok
    ? say.text('photo.camera.ok')
    : say.text('photo.camera.out', { why: say.text(`photo.problem.${cam.problem ?? 'unknown'}`) });
  const missed = !cam.ok && cam.missedPunches > 0 ? ` (${cam.missedPunches} ${say.text('photo.state.none')})` : '';
  return [say.label('status.label.camera') + value + missed];
}
