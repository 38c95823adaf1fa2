/**
 * `timeclock afd export ... | head` (or `punches | head -1`): the reader goes away before the
 * command has said everything, and Node reports the write's EPIPE as an unhandled 'error' with a
 * stack trace. A closed pipe means nobody reads any more: the rest of the output is dropped and the
 * command finishes its work (a file being written is completed, its exit code stays the true one),
 * as quietly as a Unix tool ends on SIGPIPE. Other errors of the stream are said once on stderr.
 */
const watched = new WeakSet<NodeJS.WriteStream>();

export function endQuietlyOnClosedStdout(stdout: NodeJS.WriteStream = process.stdout): void {
  if (watched.has(stdout)) return; // runCli may run more than once in a process (tests, the app's CLI mode)
  watched.add(stdout);
  let reported = false;
  stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') {
      // Later writes go nowhere instead of queueing behind a dead pipe.
      stdout.write = (() => true) as typeof stdout.write;
      return;
    }
    if (!reported) process.stderr.write(`timeclock: cannot write the output: ${e.message}\n`);
    reported = true;
  });
}
