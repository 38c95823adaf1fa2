import type { Logger } from '../../log.js';

/**
 * The last line of defence of a terminal that must keep taking punches: an error nobody caught
 * (a rejected promise, an exception in a callback) is logged and noted for status, and the process
 * goes on. Without this, Node ends the process and systemd restarts it into the same error: a
 * crash loop during which nobody can punch. Each capture is its own transaction, so nothing a
 * stray error interrupted is half-written.
 */
export function installProcessGuard(log: Logger, note: (message: string) => void = () => {}): () => void {
  const onRejection = (reason: unknown) => report('unhandled rejection', reason);
  const onException = (error: Error) => report('uncaught exception', error);
  function report(kind: string, e: unknown): void {
    const message = e instanceof Error ? e.message : String(e);
    try {
      log.error(`${kind}; the terminal keeps running`, {
        error: message,
        stack: e instanceof Error ? e.stack : undefined,
      });
      note(`${kind}: ${message}`);
    } catch {
      /* reporting must not throw from here */
    }
  }
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}

/**
 * Node's own warnings (a listener leak, a deprecation) go through the log instead of Node's text
 * on stderr, so a service's stderr stays one JSON object per line. Returns the undo.
 */
export function logProcessWarnings(log: Logger): () => void {
  const before = process.listeners('warning');
  process.removeAllListeners('warning');
  const onWarning = (w: Error & { code?: string }) =>
    log.warn(`node: ${w.message}`, { warning: w.name, ...(w.code ? { code: w.code } : {}) });
  process.on('warning', onWarning);
  return () => {
    process.off('warning', onWarning);
    for (const l of before) process.on('warning', l);
  };
}
