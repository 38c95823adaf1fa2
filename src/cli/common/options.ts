import { parseArgs } from 'node:util';
import { z } from 'zod';

/** Exit codes the operator's scripts can rely on. */
export const Exit = { ok: 0, error: 1, usage: 2, blocked: 3 } as const;

const optionSpecs = {
  headless: { type: 'boolean' },
  browser: { type: 'string' },
  json: { type: 'boolean' },
  config: { type: 'string' },
  'max-wait-ms': { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  limit: { type: 'string' },
  'window-ms': { type: 'string' },
  token: { type: 'string' },
  employees: { type: 'string' },
  sites: { type: 'string' },
  seconds: { type: 'string' },
  variant: { type: 'string', multiple: true },
  all: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  'print-punches': { type: 'boolean' },
  from: { type: 'string' },
  to: { type: 'string' },
  out: { type: 'string' },
  demo: { type: 'boolean' },
  pdf: { type: 'boolean' },
  'allow-unsigned': { type: 'boolean' },
  strict: { type: 'boolean' },
} as const;

export function parseCli(argv: string[]) {
  return parseArgs({ args: argv, options: optionSpecs, allowPositionals: true, strict: true });
}

export type CliOptions = ReturnType<typeof parseCli>['values'];

export class UsageError extends Error {}

/** A numeric flag: absent gives `fallback`; anything but an integer in range is a usage error. */
export function intFlag(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const r = z.coerce.number().int().min(min).max(max).safeParse(raw);
  if (!r.success || raw.trim() === '')
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got '${raw}')`);
  return r.data;
}
