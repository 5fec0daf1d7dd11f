/**
 * Tool arguments as the services can store them, whichever transport brought them (MCP tools/call, REST path
 * parameters and bodies): cleaned before any schema reads them.
 */
import { LIMITS } from '../content/limits.js';
import { pathText, validationError } from '../errors.js';

/** NUL, and a UTF-16 surrogate without its pair (one pattern to find, the same global one to replace). */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters it finds
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

interface CopyJob {
  from: unknown;
  into: object;
  key: string | number;
  depth: number;
  parent: CopyJob | null;
}

/**
 * The input as the tools take it: every string (values and keys) with the characters neither store can hold
 * replaced by U+FFFD, NUL (PostgreSQL refuses it in text and jsonb) and unpaired surrogates (not Unicode:
 * UTF-8 cannot encode them, jsonb refuses their escapes), as CommonMark does with NUL and a UTF-8 encoder
 * with a lone surrogate, so both engines store and answer the same text; and nothing nested deeper than
 * LIMITS.inputDepth (VALIDATION_ERROR). A copy made without recursion, keys in their order.
 */
export function storableInput(input: unknown): unknown {
  const clean = (text: string) => (UNSTORABLE.test(text) ? text.replace(UNSTORABLE_ALL, '\uFFFD') : text);
  const root: { value?: unknown } = {};
  const stack: CopyJob[] = [{ from: input, into: root, key: 'value', depth: 0, parent: null }];
  for (let job = stack.pop(); job !== undefined; job = stack.pop()) {
    const { from, into, key, depth } = job;
    let value: unknown = from;
    if (typeof from === 'string') value = clean(from);
    else if (from !== null && typeof from === 'object') {
      if (depth > LIMITS.inputDepth) {
        const path: Array<string | number> = [];
        for (let at: CopyJob | null = job; at?.parent; at = at.parent) path.unshift(at.key);
        throw validationError([{ path: pathText(path.slice(0, 8)) + (path.length > 8 ? '.…' : ''), message: `nested deeper than ${LIMITS.inputDepth} levels; flatten it` }]);
      }
      if (Array.isArray(from)) {
        const copy: unknown[] = new Array<unknown>(from.length);
        from.forEach((item: unknown, i) => stack.push({ from: item, into: copy, key: i, depth: depth + 1, parent: job }));
        value = copy;
      } else {
        const copy: Record<string, unknown> = {};
        for (const [k, item] of Object.entries(from)) {
          const name = clean(k);
          Object.defineProperty(copy, name, { value: undefined, enumerable: true, writable: true, configurable: true });
          stack.push({ from: item, into: copy, key: name, depth: depth + 1, parent: job });
        }
        value = copy;
      }
    }
    Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return root.value;
}
