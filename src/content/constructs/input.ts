/**
 * What the constructs share for a Slate input: the zod pieces their node shapes are made of, and the check that
 * runs a shape on one node and words its first issue as an input error (path and message).
 *
 * A shape is shallow: a node's own fields, with its `children` left to the walker (../slate-input.ts), which
 * reads them one level at a time on its explicit stack. A recursive schema would recurse as deep as the input
 * (any depth a client sends) and walk megabytes twice.
 */
import { z } from 'zod';
import type { WaymarkError } from '../../errors.js';
import { issueMessage } from '../../zod-issues.js';
import { UUID_PATTERN } from '../ids.js';
import { parser } from '../markdown/md.js';
import { invalid } from '../problems.js';
import { quote } from '../../quote.js';
import { MARKS, type SlateNode, type TextLeaf, type VoidChildren } from '../slate.js';
import { assertSafeUrl } from '../url.js';
import type { Obj } from './types.js';

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// ---- the pieces of a shape ---------------------------------------------------------------------------------

export const STRING = z.string({ error: 'must be a string' });

const ID_ERROR = 'an id is a UUID as get_bit returned it; leave it out on a new node and one is made';

/**
 * A node's own id. Ids are UUIDs (authoring-interface.md, "Resources"): a made-up one would print as an
 * anchor that the markdown form cannot write back, or clash with an element key of the same text. Absent
 * on a new node (one is minted); once per body (the walker's claimId).
 */
export const ID = z.string({ error: ID_ERROR }).regex(UUID_PATTERN, { error: ID_ERROR }).nullish();

/**
 * A container's children: the walker's to check, each against the construct that owns its type; when they
 * are absent or not an array, the walker's message says what a node holds.
 */
export const CHILDREN = z.unknown().optional();

/** A container that must hold something: an array of at least one child (the walker checks each). */
export function someChildren(message: string) {
  return z.custom<unknown[]>((v) => Array.isArray(v) && v.length > 0, { error: message });
}

/** A container of exactly one child. */
export function oneChild(message: string) {
  return z.custom<[unknown]>((v) => Array.isArray(v) && v.length === 1, { error: message });
}

const VOID = 'a void node holds exactly one empty text: [{"text": ""}]';

/** Slate's void: exactly one empty text (its marks, which carry emphasis around an inline void, are the leaf's shape). */
export const VOID_CHILDREN = z.tuple([z.looseObject({ text: z.literal('', { error: VOID }) }, { error: VOID })], { error: VOID }).optional();

const MARK = z.boolean({ error: 'a mark is true or absent' }).optional();

/** A text leaf: its text and its marks (`false` is taken as absent). */
export const LEAF = z.strictObject({
  text: STRING,
  ...(Object.fromEntries(MARKS.map((m) => [m, MARK])) as Record<(typeof MARKS)[number], typeof MARK>),
});

// ---- the check of one node ------------------------------------------------------------------------------

/** Runs `shape` on the input node at `path`: its fields as parsed, or the input error of its first issue. */
export function checkShape<S extends z.ZodObject>(shape: S, value: Obj, path: string): z.output<S> {
  const r = shape.safeParse(value);
  if (r.success) return r.data;
  throw shapeProblem(r.error.issues, shape, value, path);
}

/**
 * The error of a failed shape. A field the node may not have is named first (whatever else is wrong);
 * otherwise the first issue, in the shape's field order. Its path is the field it is in: nested object keys
 * kept, cut at the first array index, so an array's entries are reported as the array (an alignment, a
 * void's children), as the walker reports each child itself.
 */
function shapeProblem(issues: readonly z.core.$ZodIssue[], shape: z.ZodObject, value: Obj, path: string): WaymarkError {
  const issue = issues.find((i) => i.code === 'unrecognized_keys' && i.path.length === 0) ?? issues[0];
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0];
    if (issue.path.length > 0) return invalid(`${fieldPath(path, issue.path)}.${key}`, issueMessage(issue, shape, value));
    const allowed = Object.keys(shape.shape).join(', ');
    return invalid(path, `unknown field '${quote(key)}' on a ${quote(String(value.type ?? 'text'))} node (allowed: ${allowed})`);
  }
  return invalid(fieldPath(path, issue.path), issueMessage(issue, shape, value));
}

function fieldPath(path: string, segments: readonly PropertyKey[]): string {
  let out = path;
  for (const s of segments) {
    if (typeof s !== 'string') break;
    out += `.${s}`;
  }
  return out;
}

// ---- what the handlers build from checked fields ------------------------------------------------------------

export function textLeaf(value: Obj, path: string, allowMarks: boolean): TextLeaf {
  // Most nodes of a body are unmarked text, `{"text": …}`: what LEAF holds of it is seen without a parse.
  if (typeof value.text === 'string' && onlyText(value)) return { text: value.text };
  const fields = checkShape(LEAF, value, path);
  const leaf: TextLeaf = { text: fields.text };
  if (allowMarks) for (const m of MARKS) if (fields[m] === true) leaf[m] = true;
  return leaf;
}

function onlyText(value: Obj): boolean {
  for (const key in value) if (key !== 'text') return false;
  return true;
}

/** A void's children from its checked shape: the one empty text (its marks checked), or one made when absent. */
export function voidChildren(children: readonly [Obj] | undefined, path: string): VoidChildren {
  if (children === undefined) return [{ text: '' }];
  return [textLeaf(children[0], `${path}.children[0]`, true)];
}

/** A url as the markdown parser stores a link destination (normalised), so that get_bit prints it unchanged. */
export function normalizeUrl(url: string): string {
  return parser().normalizeLink(url);
}

export function safeUrl(url: string, path: string): string {
  assertSafeUrl(url, path);
  return normalizeUrl(url);
}

/** A container's children must be an array; an empty one is filled where Slate needs a child. */
export function emptyText(): SlateNode {
  return { text: '' };
}
