/** Reading the mock's answers as the tests of its variants do: Eve envelopes, error bodies, a punch body. */
import { expect } from 'vitest';
import { errorBodySchema } from '../../src/api/shapes.js';
import type { MockServer } from '../../src/mock/mock-server.js';
import { mockCall, type CallOpts, type Res } from './mock-http.js';

export type Json = Record<string, unknown>;

export type Envelope = {
  _items: Json[];
  _links?: Record<string, { href: string }>;
  _meta?: { max_results: number; page: number; total: number };
};

export const call = (srv: MockServer, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, opts: CallOpts = {}) =>
  mockCall(srv, method, path, opts);

/** A GET that must answer 200, read as an envelope. */
export async function page(srv: MockServer, path: string): Promise<Envelope> {
  const res = await call(srv, 'GET', path);
  expect(res.status).toBe(200);
  return res.json as Envelope;
}

/** An answer that must be an Eve error body with `status` in it too. */
export function expectError(res: Res, status: number): ReturnType<typeof errorBodySchema.parse> {
  expect(res.status).toBe(status);
  const body = errorBodySchema.parse(res.json);
  expect(body._error.code).toBe(status);
  return body;
}

/** The body of a POST /times for the employee with external id `ext`. */
export const punch = (ext: string) => ({ employee_external_id: ext, time: '2026-11-21T08:03' });
