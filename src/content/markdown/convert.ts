/**
 * markdownToBody: the markdown form of bit_body → the stored Slate body (authoring-interface.md, "Body
 * syntax" and update_bit rules; CONTRACT.md, "Body forms").
 */
import { indexBody, type BodyIndex } from '../body-index.js';
import { validateElementEntries, type ElementEntry } from '../entries.js';
import { defaultNewId } from '../ids.js';
import { assertConnectionCount, checkNamedConnection, claimConnections, conditionFromLine } from '../connection-rules.js';
import { invalid } from '../problems.js';
import { ElementResolver, standingAlone } from '../resolve.js';
import { assertBodySize } from '../size.js';
import type { BlockNode, SlateBody } from '../slate.js';
import { CONSTRUCTS, type ConstructRegistry } from '../constructs/index.js';
import { ParseContext, type PendingConnection } from './context.js';
import { parseBlocks } from './parse.js';
import { assertMarkdownDepth, assertMarkdownOutputFloor, assertMarkdownSize } from './prescan.js';
import { quote } from '../../quote.js';
import type { TargetNames } from '../targets.js';

export interface ConvertOptions {
  elements?: ElementEntry[];
  /** The stored body ids are kept from, or its index (indexBody) when the caller has let the tree go. */
  previous?: SlateBody | BodyIndex;
  newId?: () => string;
  /** The caller checks the size on the JSON it writes (assertJsonSize) instead of this writing it once more. */
  sizeCheckedByCaller?: boolean;
  /**
   * How many block tokens wait before a run of them is walked (md.ts, blockStream). Only tests set it, to
   * put a run boundary at every place of a body: the result must not depend on it.
   */
  blockRun?: number;
  /** The constructs the markdown is read with: the built-in ones unless a test brings its own registry. */
  constructs?: ConstructRegistry;
  /** Connection targets and citations are written as names (a folder's files, ../targets.ts), not ids. */
  names?: TargetNames;
  /**
   * An anchor that names no node of `previous` is the id of a new link or image, kept as it is: a folder written by
   * export is read back with its nodes' ids (issue 30), where add_bit refuses an anchor it does not know.
   */
  adoptAnchors?: boolean;
}

export interface ConvertResult {
  body: SlateBody;
  /** key → id of every node created from a key (elements and items). */
  minted: Record<string, string>;
}

export function markdownToBody(markdown: string, opts: ConvertOptions = {}): ConvertResult {
  assertMarkdownSize(markdown);
  assertMarkdownDepth(markdown);
  assertMarkdownOutputFloor(markdown);
  const entries = validateElementEntries(opts.elements);
  const previous = indexBody(opts.previous);
  const resolver = new ElementResolver(entries, previous, opts.newId ?? defaultNewId, opts.adoptAnchors === true);
  const ctx = new ParseContext(markdown, resolver, previous, opts.constructs ?? CONSTRUCTS, opts.blockRun, opts.names);
  const children: BlockNode[] = parseBlocks(ctx);
  for (const { node } of resolver.unplaced()) {
    children.push(standingAlone(node));
  }
  finishConnections(ctx.connections, children, previous, resolver.minted);
  const body: SlateBody = { children: children.length > 0 ? children : [{ type: 'p', children: [{ text: '' }] }] };
  if (!opts.sizeCheckedByCaller) assertBodySize(body);
  return { body, minted: resolver.minted };
}

/**
 * Connections after the whole body is read, by the connection rules (../connection-rules.ts): the limit,
 * each `node=` a stored connection named once with its target kept, claims by the lines without `node=`,
 * and `when` resolved against the body's elements (ids, or keys of this call).
 */
function finishConnections(
  pending: readonly PendingConnection[],
  children: BlockNode[],
  previous: BodyIndex,
  minted: Record<string, string>,
): void {
  if (pending.length === 0) return;
  assertConnectionCount(pending.length);
  const named = new Set<string>();
  for (const { node, at } of pending) {
    if (node.id === null) continue;
    const stored = previous.get(node.id);
    checkNamedConnection({ id: node.id, target_bit_id: node.target_bit_id }, stored?.kind === 'connection' ? stored.node : undefined, at);
    if (named.has(node.id)) throw invalid(at, `connection ${quote(node.id)} is written more than once`);
    named.add(node.id);
  }
  claimConnections(
    pending.map((p) => p.node),
    previous,
  );
  if (!pending.some((p) => p.when)) return;
  const elements = indexBody({ children });
  for (const { node, when, at } of pending) {
    if (!when) continue;
    node.params = { when: conditionFromLine(when, elements, minted, at), ...node.params };
  }
}
