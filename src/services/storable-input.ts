/**
 * Tool arguments as the services can store them, whichever transport brought them (MCP tools/call, REST path
 * parameters and bodies): cleaned before any schema reads them.
 */
import { LIMITS } from '../limits/index.js';
import { pathText, validationError } from '../errors.js';

/** NUL, and a UTF-16 surrogate without its pair (one pattern to find, the same global one to replace). */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters it finds
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');
/** Whether a string may hold one: a plain character class, far cheaper than UNSTORABLE's lookarounds on the text that has none. */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters it finds
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

/** A container being copied: where it came from, its copy, and how it was reached (for the depth error's path). */
interface CopyJob {
  from: object;
  into: Record<string, unknown> | unknown[];
  key: string | number;
  depth: number;
  parent: CopyJob | null;
}

/** `__proto__` as an own key (JSON.parse makes it one) must stay data, never the copy's prototype. */
function put(into: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
  else (into as Record<string | number, unknown>)[key] = value;
}

/**
 * The input as the tools take it: every string (values and keys) with the characters neither store can hold
 * replaced by U+FFFD, NUL (PostgreSQL refuses it in text and jsonb) and unpaired surrogates (not Unicode:
 * UTF-8 cannot encode them, jsonb refuses their escapes), as CommonMark does with NUL and a UTF-8 encoder
 * with a lone surrogate, so both engines store and answer the same text; and nothing nested deeper than
 * LIMITS.inputDepth (VALIDATION_ERROR). The input itself when it needs neither (the transports hand each
 * call its own parsed arguments); else a copy made without recursion, keys in their order.
 */
export function storableInput(input: unknown): unknown {
  return storableInputOf(input).value;
}

/**
 * storableInput, with how many containers (objects and arrays) its walk met: the transports let a large input's
 * next steps (its schema, the tool) run in turns of the event loop of their own.
 */
export function storableInputOf(input: unknown): { value: unknown; containers: number } {
  const walk = { containers: 0 };
  return needsCopy(input, walk) ? { value: copyStorable(input), containers: walk.containers } : { value: input, containers: walk.containers };
}

/**
 * Whether any string (value or key) holds an unstorable character, or any container is nested too deep: one
 * walk that allocates nothing per value. Almost no input does, and then the input is used as it is (a copy of a
 * Slate body of 300,000 nodes was 100 ms and another 30 MB).
 */
function needsCopy(input: unknown, walk: { containers: number }): boolean {
  if (typeof input === 'string') return SUSPECT.test(input);
  if (input === null || typeof input !== 'object') return false;
  const stack: object[] = [input];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const from = stack.pop() as object;
    walk.containers++;
    const depth = depths.pop() as number;
    if (depth > LIMITS.inputDepth) return true;
    if (Array.isArray(from)) {
      for (let i = 0; i < from.length; i++) {
        const item: unknown = from[i];
        if (typeof item === 'string') {
          if (SUSPECT.test(item)) return true;
        } else if (item !== null && typeof item === 'object') {
          stack.push(item);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const k in from) {
      if (!Object.hasOwn(from, k)) continue;
      if (SUSPECT.test(k)) return true;
      const item: unknown = (from as Record<string, unknown>)[k];
      if (typeof item === 'string') {
        if (SUSPECT.test(item)) return true;
      } else if (item !== null && typeof item === 'object') {
        stack.push(item);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

function copyStorable(input: unknown): unknown {
  const clean = (text: string) => (SUSPECT.test(text) && UNSTORABLE.test(text) ? text.replace(UNSTORABLE_ALL, '\uFFFD') : text);
  if (input === null || typeof input !== 'object') return typeof input === 'string' ? clean(input) : input;
  const emptyOf = (from: object): Record<string, unknown> | unknown[] => (Array.isArray(from) ? new Array<unknown>(from.length) : {});
  const root = emptyOf(input);
  const stack: CopyJob[] = [{ from: input, into: root, key: '', depth: 0, parent: null }];
  for (let job = stack.pop(); job !== undefined; job = stack.pop()) {
    const { from, into, depth } = job;
    if (depth > LIMITS.inputDepth) {
      const path: Array<string | number> = [];
      for (let at: CopyJob | null = job; at?.parent; at = at.parent) path.unshift(at.key);
      throw validationError([{ path: pathText(path.slice(0, 8)) + (path.length > 8 ? '.…' : ''), message: `nested deeper than ${LIMITS.inputDepth} levels; flatten it` }]);
    }
    if (Array.isArray(from)) {
      for (let i = 0; i < from.length; i++) {
        const item: unknown = from[i];
        if (item !== null && typeof item === 'object') {
          const copy = emptyOf(item);
          (into as unknown[])[i] = copy;
          stack.push({ from: item, into: copy, key: i, depth: depth + 1, parent: job });
        } else (into as unknown[])[i] = typeof item === 'string' ? clean(item) : item;
      }
      continue;
    }
    for (const k in from) {
      if (!Object.hasOwn(from, k)) continue;
      const item: unknown = (from as Record<string, unknown>)[k];
      const key = clean(k);
      if (item !== null && typeof item === 'object') {
        const copy = emptyOf(item);
        put(into, key, copy);
        stack.push({ from: item, into: copy, key, depth: depth + 1, parent: job });
      } else put(into, key, typeof item === 'string' ? clean(item) : item);
    }
  }
  return root;
}
