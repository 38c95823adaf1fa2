import { expect } from 'vitest';
import { errorBodySchema } from '../../src/api/shapes.js';
import type { Res } from './mock-http.js';

/** A clock for the mock (its `clock` option) that moves only when told. */
export function fakeClock(start: number): {
  now: () => number;
  set: (t: number) => void;
  advance: (ms: number) => void;
} {
  let t = start;
  return { now: () => t, set: (v) => (t = v), advance: (ms) => (t += ms) };
}

/** Checks that the mock answered `status` with a JSON error body of the API's shape, and returns the body. */
export function expectError(res: Res, status: number): ReturnType<typeof errorBodySchema.parse> {
  expect(res.status).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = errorBodySchema.parse(res.json);
  expect(body._status).toBe('ERR');
  expect(body._error.code).toBe(status);
  return body;
}
