/** A plain Redis client for benches that look at what the terminals left in Redis (XLEN, MEMORY USAGE). */
import { Redis } from 'ioredis';

export function createClient(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1 });
}
