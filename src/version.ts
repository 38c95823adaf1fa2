import { readFileSync } from 'node:fs';

/**
 * The terminal's version, from package.json (read once): `timeclock --version`, status, the admin
 * screen and the first log line, so a fleet can tell which build each terminal runs.
 */
function readVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === 'timeclock-kiosk' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      /* try the next place: src/ runs from dist/src/ once built */
    }
  }
  return 'unknown';
}

export const VERSION = readVersion();

/**
 * Before this instant no punch can have been taken by this build: `npm run build` records its time
 * (SOURCE_DATE_EPOCH when set, for reproducible builds) in build-info.json beside this file. Run
 * from the sources (tests), the floor below: the first day this rule existed. A wall-clock time
 * earlier than it is a dead RTC's (domain/time/unanchored-doubt.ts).
 */
const SOURCE_FLOOR = Date.UTC(2026, 0, 1);

function readBuildTime(): number {
  try {
    const info = JSON.parse(readFileSync(new URL('./build-info.json', import.meta.url), 'utf8')) as {
      builtAt?: unknown;
    };
    const t = typeof info.builtAt === 'string' ? Date.parse(info.builtAt) : NaN;
    if (Number.isFinite(t)) return Math.max(t, SOURCE_FLOOR);
  } catch {
    /* not built: the sources */
  }
  return SOURCE_FLOOR;
}

export const BUILD_TIME = readBuildTime();
