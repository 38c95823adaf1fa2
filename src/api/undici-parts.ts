/**
 * The parts of undici the client sends through, loaded from their own files. undici's index loads
 * all of undici (fetch, WebSocket, EventSource, caches, mock agents, interceptors: 336 files where
 * these take 65) for nothing a terminal runs: the built agent loads in 82.9 MiB rather than 85.2,
 * 2.2 MiB less of V8's heap (issue 28 item 10). undici's package has no `exports`
 * map, so these paths are its files as published; the version is pinned (package.json), and
 * test/unit/undici-parts.test.ts checks that they are still what its index exports.
 */
import { createRequire } from 'node:module';
import type { Agent as AgentClass, Dispatcher, ProxyAgent as ProxyAgentClass } from 'undici';

const load = createRequire(import.meta.url);

type RequestMethods = Pick<Dispatcher, 'request' | 'stream' | 'pipeline' | 'connect' | 'upgrade'>;

// What the index does first: every dispatcher gets request, connect… (a ProxyAgent opens its tunnel
// with its client's `connect`). The same functions, so loading the index as well changes nothing.
const base = load('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
Object.assign(base.prototype, load('undici/lib/api/index.js') as RequestMethods);

export const Agent = load('undici/lib/dispatcher/agent.js') as typeof AgentClass;
export const ProxyAgent = load('undici/lib/dispatcher/proxy-agent.js') as typeof ProxyAgentClass;

/** One request through `dispatcher`, as undici's `request(url, { dispatcher, … })` makes it. */
export function request(
  dispatcher: Dispatcher,
  url: URL,
  opts: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>,
): Promise<Dispatcher.ResponseData> {
  return dispatcher.request({ ...opts, origin: url.origin, path: `${url.pathname}${url.search}` });
}
