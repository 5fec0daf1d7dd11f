/** Asserting a WaymarkError by code (and details), with the error itself returned for more checks. */
import { expect } from 'vitest';
import { WaymarkError, type ErrorCode } from '../../errors.js';

export function expectError(fn: () => unknown, code: ErrorCode, details?: Record<string, unknown>): WaymarkError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected ${code}`).toBeInstanceOf(WaymarkError);
  const error = caught as WaymarkError;
  expect({ code: error.code, message: error.message }).toMatchObject({ code });
  if (details) expect(error.details).toMatchObject(details);
  return error;
}
