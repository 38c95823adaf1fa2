#!/usr/bin/env node
// `timeclock` under Node (development, `npm start`): the command line itself is in cli/run.ts,
// which the packaged app also runs in its command-line mode.
import { runCli } from './cli/run.js';

runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
