/**
 * Issue 31: doctor's camera line, with photo.mode on-punch: the camera as the screen last reported
 * it to the agent (the doctor cannot open the screen's camera itself: the running screen holds it).
 */
import type { StoredFacts } from '../../agent/diagnostics/doctor-reads.js';
import type { Config } from '../../config.js';
import { ok, warn, type CheckResult } from './result.js';

export function cameraCheck(config: Config, facts: StoredFacts | null): CheckResult[] {
  if (config.photo.mode !== 'on-punch') return [];
  const cam = facts?.camera ?? null;
  if (cam === null)
    return [
      warn(
        'camera',
        'photo.mode is on-punch but the screen has not reported its camera yet (start the kiosk screen; see README "Photo per punch")',
      ),
    ];
  if (cam.ok) return [ok('camera', 'working: a photo is taken at each punch')];
  const missed = cam.missedPunches > 0 ? `; ${cam.missedPunches} punches registered "sem foto" since` : '';
  return [
    warn(
      'camera',
      `out (${cam.problem ?? 'unknown'})${missed}: punches are still registered, without a photo; check the camera's cable and that no other program holds it`,
    ),
  ];
}
