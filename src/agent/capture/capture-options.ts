/** What capture takes from the configuration: identity rules, PIN policy, zones, the clock's tolerance. */
import type { Config } from '../../config.js';
import type { CaptureOptions } from './capture.js';
import { systemTimeZone } from '../host/runtime.js';

export function captureOptionsOf(config: Config): CaptureOptions {
  return {
    rules: config.identity,
    unknown: config.identity.unknown,
    repeatWindowMs: config.identity.repeatWindowMs,
    pinRequiredFor: config.pin.requiredFor,
    onLockout: config.pin.onLockout,
    fallbackTimeZone: config.timezone ?? systemTimeZone(),
    clockSkewThresholdMs: config.clockSkewThresholdMs,
  };
}
