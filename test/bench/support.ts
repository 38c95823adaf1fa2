/**
 * Small helpers shared by the benches: temp dirs, hard time limits, a real agent's config.
 * Self-contained on purpose (benches do not depend on the vitest helpers).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Agent } from '../../src/agent/facade/agent.js';
import { buildAgent, realRuntime } from '../../src/agent/build-agent.js';
import { configSchema, type Config } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';

export type TempDir = { dir: string; cleanup: () => void };

export function tempDir(prefix: string): TempDir {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export type Timed<T> = { timedOut: false; value: T } | { timedOut: true };

/** Races `p` against a hard limit; the timer is always cleared. `p` keeps running if it loses. */
export async function withTimeout<T>(p: Promise<T>, ms: number): Promise<Timed<T>> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<Timed<T>>((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), ms);
  });
  try {
    return await Promise.race([p.then((value): Timed<T> => ({ timedOut: false, value })), limit]);
  } finally {
    clearTimeout(timer);
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
export const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/** glibc's settings the terminal is launched with (assets/bin/timeclock), for the benches' agent processes. */
export const MALLOC_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '262144',
} as const;

/**
 * A real agent (real SQLite file in `dataDir`, real HTTP) pointed at `baseUrl`, logging nothing; `extra`: more
 * configuration.
 */
export function benchAgent(o: {
  dataDir: string;
  baseUrl: string;
  siteId?: string;
  rateLimit: { limit: number; windowMs: number };
  extra?: Record<string, unknown>;
}): Agent {
  const config = configSchema.parse({
    ...o.extra,
    dataDir: o.dataDir,
    api: { baseUrl: o.baseUrl, token: 'demo-token', timeoutMs: 5_000 },
    siteId: o.siteId,
    timezone: 'America/Sao_Paulo',
    rateLimit: o.rateLimit,
    retry: { baseMs: 100, maxMs: 1_000, authRetryMs: 1_000 },
  }) as Config & { api: NonNullable<Config['api']> };
  return buildAgent(config, realRuntime(silentLogger));
}

const FS_MAGIC: Record<number, string> = {
  0x01021994: 'tmpfs',
  0xef53: 'ext2/3/4',
  0x794c7630: 'overlayfs',
  0x9123683e: 'btrfs',
  0x58465342: 'xfs',
  0x2fc12fc1: 'zfs',
  0x65735546: 'fuse',
};

/** Where the temp dirs live and what file system that is (fsync cost depends on it). */
export function tempFsInfo(): { tmpdir: string; fsType: string } {
  const tmpdir = os.tmpdir();
  try {
    const type = fs.statfsSync(tmpdir).type;
    return { tmpdir, fsType: FS_MAGIC[type] ?? `0x${type.toString(16)}` };
  } catch {
    return { tmpdir, fsType: 'unknown' };
  }
}

/**
 * A distinct, random-looking badge code for employee `i` ('B' + 8 hex digits). Every step is a
 * bijection on 32 bits (odd multiplier, xor-shift), so no two employees below 2^32 share a code.
 */
export function badgeCode(i: number): string {
  let x = Math.imul(i + 1, 0x9e3779b1) >>> 0;
  x = (x ^ (x >>> 15)) >>> 0;
  x = Math.imul(x, 0x85ebca6b) >>> 0;
  x = (x ^ (x >>> 13)) >>> 0;
  return 'B' + x.toString(16).toUpperCase().padStart(8, '0');
}

/** A small deterministic PRNG (xorshift32), so every run samples the same employees. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0 || 0x2545f491;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x1_0000_0000;
  };
}

/** The first `k` of a seeded shuffle of 0..n-1: `k` distinct indices in random order. */
export function distinctSample(n: number, k: number, random: () => number): number[] {
  const a = Array.from({ length: n }, (_, i) => i);
  const m = Math.min(k, n);
  for (let i = 0; i < m; i++) {
    const j = i + Math.floor(random() * (n - i));
    const t = a[i] as number;
    a[i] = a[j] as number;
    a[j] = t;
  }
  return a.slice(0, m);
}
