/**
 * Imported first by main.ts. Zod compiles object parsers with `new Function` unless told not to;
 * the kiosk page's CSP has no 'unsafe-eval', so even zod's guarded probe would be reported as a
 * CSP violation. Jitless parsing is plenty fast for the handful of messages the screen checks.
 */
import { z } from 'zod';

z.config({ jitless: true });
