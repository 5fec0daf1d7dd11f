/**
 * Which operation a change belongs to: set once around each call by the operation pipeline (operations/dispatch.ts)
 * and by the command line and sign-in paths that change things outside it, read where the event is appended
 * (record.ts). Carried by AsyncLocalStorage, as fair-share.ts carries the caller, so that no service restates the
 * name of the operation that called it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const operations = new AsyncLocalStorage<string>();

/** The name events record for a change made outside any named operation (a test or script calling a service). */
export const UNNAMED_OPERATION = 'internal';

export function asOperation<T>(name: string, work: () => T): T {
  return operations.run(name, work);
}

export function currentOperation(): string {
  return operations.getStore() ?? UNNAMED_OPERATION;
}
