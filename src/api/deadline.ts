/**
 * One deadline for a whole request: connect, headers and the entire body. undici's own timeouts
 * are per phase and its body timeout is idle time between chunks, so a body trickled a byte a
 * second held a request (and the uploader behind it) for minutes; this bounds it.
 */

/** undici's connect timeout for `api.timeoutMs` (a connect that takes longer is not going to work). */
export function connectTimeoutMs(timeoutMs: number): number {
  return Math.min(timeoutMs, 10_000);
}

/**
 * The whole request's deadline: the connect timeout, then `api.timeoutMs` for the headers (as
 * undici's headersTimeout) and `api.timeoutMs` again for the whole body:
 * `min(timeoutMs, 10 s) + 2 × timeoutMs` (30 s at the default 10 s). Since it is longer than
 * the connect timeout, a connect that fails is still told apart (nothing was sent).
 */
export function requestDeadlineMs(timeoutMs: number): number {
  return connectTimeoutMs(timeoutMs) + 2 * timeoutMs;
}

export type Deadline = {
  /** Aborts the request (undici destroys its socket) when the deadline passes. */
  signal: AbortSignal;
  /** Whether the deadline has passed (the abort was ours). */
  expired(): boolean;
  /** What to say of a request that missed it. */
  error: string;
  /** Must be called when the request is over, however it ended: the timer is not left behind. */
  clear(): void;
};

export function startDeadline(timeoutMs: number): Deadline {
  const ms = requestDeadlineMs(timeoutMs);
  const controller = new AbortController();
  const error = `the request timed out: no complete answer within ${ms} ms (the deadline from api.timeoutMs ${timeoutMs} ms)`;
  const timer = setTimeout(() => controller.abort(new Error(error)), ms);
  return {
    signal: controller.signal,
    expired: () => controller.signal.aborted,
    error,
    clear: () => clearTimeout(timer),
  };
}
