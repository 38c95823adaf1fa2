import { execFileSync } from 'node:child_process';

/**
 * Crash, CLI and browser tests run the built `timeclock` command and the bundled kiosk screen:
 * build both first (scripts/build.mjs, as `npm run build`), so a test never exercises a stale dist/
 * (whether started by `npm test` or `npx vitest`).
 */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
