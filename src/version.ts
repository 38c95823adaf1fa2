import { readFileSync } from 'node:fs';

/**
 * The terminal's version, from package.json (read once): `timeclock --version`, status, the admin
 * screen and the first log line, so a fleet can tell which build each terminal runs.
 */
function readVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'timeclock-kiosk' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      /* try the next place: src/ runs from dist/src/ once built */
    }
  }
  return 'unknown';
}

export const VERSION = readVersion();
