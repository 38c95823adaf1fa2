/**
 * Which Node this program runs on. Checked by src/cli.ts before anything else is loaded: under an
 * older Node the SQLite module (better-sqlite3, engines ">=22") ends the process with a bare
 * "Segmentation fault", so the one line here must come first. No imports: nothing native loads.
 */

/** package.json "engines.node" (test/unit/node-runtime.test.ts keeps the two equal). */
export const SUPPORTED_NODE = '^22.12.0 || ^24.0.0';

/** The supported lines as [major, minimum minor] pairs: ^22.12.0 and ^24.0.0. */
const LINES: ReadonlyArray<readonly [number, number]> = [
  [22, 12],
  [24, 0],
];

/** True for a Node version string ("22.12.0", "v24.1.3") on a supported line. */
export function nodeSupported(version: string): boolean {
  const m = /^v?(\d+)\.(\d+)\.\d+/.exec(version);
  if (!m) return false;
  const major = Number(m[1]);
  const minor = Number(m[2]);
  return LINES.some(([line, minMinor]) => major === line && minor >= minMinor);
}

/**
 * The one line to print when this runtime cannot run the terminal, else null. Inside Electron
 * (the packaged app's command-line mode) the Node is Electron's own, built with the app: not ours
 * to check.
 */
export function unsupportedRuntimeLine(versions: NodeJS.ProcessVersions = process.versions): string | null {
  if (versions.electron !== undefined || nodeSupported(versions.node)) return null;
  return (
    `timeclock: Node ${versions.node} is not supported: run it with Node 24 or 22 (${SUPPORTED_NODE}); ` +
    "in the project's directory `npm start` does (npm ci put one in node_modules/.bin)"
  );
}
