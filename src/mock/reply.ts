/** What the API and control routes hand to the transport, and the helpers they share. */
import type { z } from 'zod';
import type { ErrorBody } from '../api/shapes.js';

export type Reply = {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Send the headers and only the first half of the body, then destroy the socket (`cutBody` variant). */
  cut?: boolean;
  /** Send this text with this content type instead of `body` as JSON (pages that are not the API's). */
  raw?: { contentType: string; text: string };
};

export function errorReply(
  status: number,
  message: string,
  issues?: Record<string, string>,
  headers?: Record<string, string>,
): Reply {
  const body: ErrorBody = { _status: 'ERR', _error: { code: status, message } };
  if (issues && Object.keys(issues).length > 0) body._issues = issues;
  return { status, body, headers };
}

export function methodNotAllowed(allow: string): Reply {
  return errorReply(405, 'method not allowed', undefined, { allow });
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function firstValues(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of params) if (!(k in out)) out[k] = v;
  return out;
}

/** Turns zod issues into the error body's flat `{ field: message }` map. */
export function issuesOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const iss of error.issues) {
    if (iss.code === 'unrecognized_keys') {
      for (const k of iss.keys) out[k] = 'unknown field';
    } else {
      const key = iss.path.length > 0 ? iss.path.map(String).join('.') : '_body';
      out[key] ??= iss.message;
    }
  }
  return out;
}

/** Strictly positive decimal integer (no sign, no decimals); `undefined` when absent. */
export function parsePositiveInt(raw: string | null): number | undefined | 'invalid' {
  if (raw === null) return undefined;
  if (!/^\d{1,15}$/.test(raw)) return 'invalid';
  const n = Number(raw);
  return n >= 1 ? n : 'invalid';
}

/** A control route's JSON body, or the 400 that says it is not JSON. */
export type Json = { ok: true; value: unknown } | { ok: false; reply: Reply };

export function readJson(bodyText: string): Json {
  try {
    return { ok: true, value: JSON.parse(bodyText) };
  } catch {
    return { ok: false, reply: errorReply(400, 'request body must be valid JSON') };
  }
}
