/**
 * The screen's `requestId` on a punch call, echoed in the `punch` event of that call's result.
 *
 * The agent emits that event from inside the call (before the call returns) and knows nothing of
 * bridges, so the id rides along in the call's async context: whatever punch event is emitted
 * while that call runs, and within its chain of awaits, is the call's own. An HID reader's punch
 * emitted meanwhile runs in its own context and goes out without an id, as it should.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string | undefined>();

/** The id a call's (already validated) input carries, if it is one of the calls that take one. */
export function requestIdOf(input: unknown): string | undefined {
  return typeof input === 'object' && input !== null && 'requestId' in input && typeof input.requestId === 'string'
    ? input.requestId
    : undefined;
}

/**
 * Runs `fn` (the call) with `id` as the id of any punch event it emits; undefined: none, whatever the outer context.
 */
export function withRequestId<T>(id: string | undefined, fn: () => T): T {
  return scope.run(id, fn);
}

/** A punch event's payload with the id of the call that emitted it; unchanged outside a call with an id. */
export function stampRequestId(payload: unknown): unknown {
  const id = scope.getStore();
  if (id === undefined || typeof payload !== 'object' || payload === null) return payload;
  return { ...payload, requestId: id };
}
