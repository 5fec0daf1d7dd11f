/**
 * How big a parsed JSON value is, measured before anything is built from it (issue 16: "check sizes and
 * counts before building anything"). The walk is iterative (a deeply nested value cannot overflow the stack)
 * and stops at the first bound crossed, so its cost is bounded by the budget, not by the value.
 */
import { joinPath, pathText } from '../errors.js';

export interface JsonBudget {
  /** Bytes of the value as JSON text (UTF-8, escapes not counted: a lower bound within a few percent). */
  bytes: number;
  /** Keys of one object. */
  keys?: number;
  /** Items of one array. */
  arrayItems?: number;
  /** Objects and arrays inside one another. */
  depth?: number;
}

export interface BudgetOverrun {
  /** Which bound was crossed. */
  limit: 'bytes' | 'keys' | 'arrayItems' | 'depth';
  /** The bound. */
  max: number;
  /** Where, as a dotted path from the value (empty for the value itself, and for bytes). */
  path: string;
}

/** The first bound the value crosses, or null when it fits. */
export function overBudget(value: unknown, budget: JsonBudget): BudgetOverrun | null {
  let bytes = 0;
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === 'string') bytes += Buffer.byteLength(v) + 2;
    else if (v === null || typeof v !== 'object') bytes += String(v).length;
    else {
      if (budget.depth !== undefined && depth >= budget.depth) return { limit: 'depth', max: budget.depth, path };
      if (Array.isArray(v)) {
        if (budget.arrayItems !== undefined && v.length > budget.arrayItems) return { limit: 'arrayItems', max: budget.arrayItems, path };
        bytes += 2 + v.length;
        // Only as many items as the remaining bytes could hold (each takes at least one byte) are looked at.
        const count = Math.min(v.length, budget.bytes - bytes + 1);
        for (let i = count - 1; i >= 0; i--) stack.push({ value: v[i], path: pathText([i], path), depth: depth + 1 });
      } else {
        const keys = Object.keys(v);
        if (budget.keys !== undefined && keys.length > budget.keys) return { limit: 'keys', max: budget.keys, path };
        bytes += 2 + keys.length * 4;
        const count = Math.min(keys.length, budget.bytes - bytes + 1);
        for (let i = count - 1; i >= 0; i--) {
          bytes += Buffer.byteLength(keys[i]);
          stack.push({ value: (v as Record<string, unknown>)[keys[i]], path: pathText([keys[i]], path), depth: depth + 1 });
        }
      }
    }
    if (bytes > budget.bytes) return { limit: 'bytes', max: budget.bytes, path: '' };
  }
  return null;
}

/** An overrun in words for an error message: what was crossed, and where. */
export function describeOverrun(name: string, overrun: BudgetOverrun): string {
  const at = joinPath(name, overrun.path);
  switch (overrun.limit) {
    case 'bytes':
      return `${name} is over ${overrun.max} bytes as JSON`;
    case 'keys':
      return `${at} has more than ${overrun.max} keys`;
    case 'arrayItems':
      return `${at} has more than ${overrun.max} items`;
    case 'depth':
      return `${at} nests objects and arrays more than ${overrun.max} deep`;
  }
}
