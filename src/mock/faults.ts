import { z } from 'zod';

/** `cut_body` is not drawn from a plan: the `cutBody` server variant (variants.ts) marks it. */
export type FaultKind = 'drop_after_store' | 'server_error' | 'slow_response' | 'always_429' | 'cut_body';

/** The kinds a plan draws at random. */
export type DrawnFault = Exclude<FaultKind, 'always_429' | 'cut_body'>;

export type FaultPlan = {
  /** Probability 0..1: do the work (store the record for POST /times), then destroy the socket without answering. */
  dropAfterStore?: number;
  /** Probability: answer 500 with an error body, do nothing else. */
  serverError?: number;
  /** Probability: do the work, then answer only after `slowDelayMs`. */
  slowResponse?: number;
  /** Default 2000. */
  slowDelayMs?: number;
  /** Answer 429 to every authenticated (matching) request, regardless of the window. */
  always429?: boolean;
  /**
   * Restrict faults to matching requests; `pathPrefix` is relative to /v2.1 (e.g. '/times'). Default: all API requests.
   */
  only?: { method?: string; pathPrefix?: string };
  /** Let this many matching requests through untouched first (to cut a sequence off mid-way). */
  afterMatches?: number;
};

export const DEFAULT_SLOW_DELAY_MS = 2000;

const probability = z.number().min(0).max(1);

/** What `PUT /__mock/faults` accepts; `null` clears the plan. */
export const faultPlanSchema = z.strictObject({
  dropAfterStore: probability.optional(),
  serverError: probability.optional(),
  slowResponse: probability.optional(),
  slowDelayMs: z.number().int().min(0).max(600_000).optional(),
  always429: z.boolean().optional(),
  only: z
    .strictObject({
      method: z.string().min(1).optional(),
      pathPrefix: z.string().startsWith('/').optional(),
    })
    .optional(),
  afterMatches: z.number().int().min(0).optional(),
});

/** Compile-time check that the schema and the public type agree. */
const _faultPlanCheck: (p: z.infer<typeof faultPlanSchema>) => FaultPlan = (p) => p;
void _faultPlanCheck;

export { mulberry32 } from '../domain/rate/seeded-random.js';

/** Whether the plan's `only` filter selects this request (`apiPath` is relative to /v2.1). */
export function faultApplies(plan: FaultPlan, method: string, apiPath: string): boolean {
  const only = plan.only;
  if (!only) return true;
  if (only.method !== undefined && only.method.toUpperCase() !== method.toUpperCase()) return false;
  if (only.pathPrefix !== undefined && !apiPath.startsWith(only.pathPrefix)) return false;
  return true;
}

/**
 * At most one fault per request, drawn in a fixed order so a given `random` sequence always gives
 * the same faults. A kind whose probability is absent or 0 draws no number, so enabling one kind
 * does not shift the sequence seen by the next.
 */
export function pickFault(plan: FaultPlan, random: () => number): DrawnFault | null {
  const draws: Array<[DrawnFault, number | undefined]> = [
    ['drop_after_store', plan.dropAfterStore],
    ['server_error', plan.serverError],
    ['slow_response', plan.slowResponse],
  ];
  for (const [kind, p] of draws) {
    if (p !== undefined && p > 0 && random() < p) return kind;
  }
  return null;
}
