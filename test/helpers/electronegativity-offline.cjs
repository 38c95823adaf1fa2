// Runs @doyensec/electronegativity with `got` (its HTTP client) set to never retry. At start it
// fetches translations from GitHub; offline, got 11's retry of that request throws an uncaught
// error from p-cancelable under Node 22 and later, killing the scan before it reads a file. The
// scan itself is offline (the Electron version is passed with -e).
const path = require('node:path');
const cli = path.resolve(process.argv[2]);
const gotPath = require.resolve('got', { paths: [path.dirname(cli)] });
const got = require(gotPath);
const once = got.extend({ retry: { limit: 0 } });
once.default = once;
require.cache[gotPath].exports = once;
process.argv.splice(1, 2, cli);
require(cli);
