/**
 * Issue 28 item 10: start-up loads what the terminal uses. Importing the built agent (what every
 * process that opens a terminal imports) loads only the packages every terminal needs; Redis
 * (ioredis), metrics (prom-client), AFD signing (node-forge, pkijs) and QR codes wait until used.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const probe = `
const m = require('node:module');
const seen = new Set();
const undiciFiles = [];
const mockFiles = [];
m.registerHooks({
  resolve(spec, ctx, next) {
    const r = next(spec, ctx);
    const i = r.url.lastIndexOf('node_modules/');
    if (i >= 0) {
      const [a, b] = r.url.slice(i + 13).split('/');
      seen.add(a.startsWith('@') ? a + '/' + b : a);
      if (a === 'undici') undiciFiles.push(r.url.slice(i + 13 + 7));
    }
    if (r.url.includes('/src/mock/')) mockFiles.push(r.url.slice(r.url.indexOf('/src/mock/') + 1));
    return r;
  },
});
import(process.argv[1]).then(() => console.log(JSON.stringify({ packages: [...seen].sort(), undiciFiles, mockFiles })));
`;

describe('the packages loaded at start', () => {
  it('are zod, undici and better-sqlite3 only: no Redis client, metrics, signing, QR code or demo mock until used', () => {
    const entry = path.resolve('dist/src/agent/open-agent.js');
    const r = spawnSync(process.execPath, ['-e', probe, entry], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const loaded = JSON.parse(r.stdout) as { packages: string[]; undiciFiles: string[]; mockFiles: string[] };
    expect(loaded.packages).toEqual(['better-sqlite3', 'undici', 'zod']);
    // undici's dispatchers and request alone (src/api/undici-parts.ts), not its index and all it loads (fetch, ...).
    expect(loaded.undiciFiles).toContain('lib/dispatcher/proxy-agent.js');
    expect(
      loaded.undiciFiles.filter((f) => f === 'index.js' || f.startsWith('lib/web/') || f.startsWith('lib/mock/')),
    ).toEqual([]);
    // The embedded mock API is the demo's (agent/host/demo.ts): a site's terminal never loads it.
    expect(loaded.mockFiles).toEqual([]);
  });
});
