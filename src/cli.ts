#!/usr/bin/env node
// `timeclock` under Node (development, `npm start`): the command line itself is in cli/run.ts,
// which the packaged app also runs in its command-line mode. The runtime is checked first, and
// run.ts imported only after: an unsupported Node gets one line (exit 2, a usage error), not the
// native SQLite module's segmentation fault.
import { unsupportedRuntimeLine } from './cli/common/node-runtime.js';

const unsupported = unsupportedRuntimeLine();
if (unsupported !== null) {
  process.stderr.write(unsupported + '\n');
  process.exit(2);
}
const { runCli } = await import('./cli/run.js');
void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
