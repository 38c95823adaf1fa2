/**
 * A package loaded the first time a part that needs it is built, not at start (issue 28 item 10):
 * a terminal without Redis, metrics or a signing key never holds ioredis (~24 MB resident),
 * prom-client (~22 MB) or node-forge in memory. Synchronous (these are CommonJS packages), so the
 * parts that use them keep their shape.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export function loadWhenUsed<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
