/**
 * The bridge itself: the call table (call-table.ts) and its types, the events, and the error envelope.
 */
import { z } from 'zod';
import { calls, type CallSpec } from './call-table.js';
import { punchEventSchema } from './punch.js';
import { readerStatusSchema, statusSchema } from './status.js';

export { calls, type CallSpec };

export type CallName = keyof typeof calls;
export type CallInput<N extends CallName> = z.infer<(typeof calls)[N]['input']>;
export type CallOutput<N extends CallName> = z.infer<(typeof calls)[N]['output']>;
export const callNames = Object.keys(calls) as CallName[];

export function isCallName(name: string): name is CallName {
  return Object.prototype.hasOwnProperty.call(calls, name);
}

// ---- events ----------------------------------------------------------------------------------------

export const events = {
  punch: punchEventSchema,
  status: statusSchema,
} as const satisfies Record<string, z.ZodType>;

/** Reader changes arrive today inside `status` (its `readers`); a dedicated event is declared only. */
export const plannedEvents = {
  reader: readerStatusSchema,
} as const satisfies Record<string, z.ZodType>;

export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>;

// ---- results and errors ------------------------------------------------------------------------------

export const errorCodes = ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'internal'] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const bridgeErrorSchema = z.object({
  ok: z.literal(false),
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    /** For `bad_request` from validation: where the input was wrong (paths and messages, never values). */
    issues: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })).optional(),
  }),
});
export type BridgeError = z.infer<typeof bridgeErrorSchema>;
export type CallSuccess<N extends CallName> = { ok: true; value: CallOutput<N> };
export type CallResult<N extends CallName> = CallSuccess<N> | BridgeError;

/** The envelope of a call's answer, for a client that wants to check what it received. */
export function callResultSchema<N extends CallName>(name: N): z.ZodType<CallResult<N>> {
  // The output schema looked up by `name` is that call's, which the compiler cannot follow through the index.
  return z.union([z.object({ ok: z.literal(true), value: calls[name].output }), bridgeErrorSchema]) as z.ZodType<
    CallResult<N>
  >;
}

/** The bridge as the renderer sees it: exactly `calls` and `events`, whatever carries them. */
export type Bridge = { [N in CallName]: (input: CallInput<N>) => Promise<CallResult<N>> } & {
  on<E extends EventName>(event: E, fn: (payload: EventPayload<E>) => void): () => void;
};
