/**
 * markdownToBody: the markdown form of bit_body → the stored Slate body (authoring-interface.md, "Body
 * syntax" and update_bit rules; CONTRACT.md, "Body forms").
 */
import { WaymarkError } from '../../errors.js';
import { indexBody, type BodyIndex } from '../body-index.js';
import { validateElementEntries, type ElementEntry } from '../entries.js';
import { defaultNewId } from '../ids.js';
import { LIMITS } from '../limits.js';
import { invalid } from '../problems.js';
import { ElementResolver, standingAlone } from '../resolve.js';
import { assertBodySize } from '../size.js';
import type { BlockNode, ConnectionCondition, ElementNode, SlateBody } from '../slate.js';
import { ParseContext, type PendingConnection } from './context.js';
import { parseBlocks } from './parse.js';
import { assertMarkdownDepth, assertMarkdownSize } from './prescan.js';
import { quote } from '../quote.js';

export interface ConvertOptions {
  elements?: ElementEntry[];
  previous?: SlateBody;
  newId?: () => string;
}

export interface ConvertResult {
  body: SlateBody;
  /** key → id of every node created from a key (elements and items). */
  minted: Record<string, string>;
}

export function markdownToBody(markdown: string, opts: ConvertOptions = {}): ConvertResult {
  assertMarkdownSize(markdown);
  assertMarkdownDepth(markdown);
  const entries = validateElementEntries(opts.elements);
  const previous = indexBody(opts.previous);
  const resolver = new ElementResolver(entries, previous, opts.newId ?? defaultNewId);
  const ctx = new ParseContext(markdown, resolver, previous);
  const children: BlockNode[] = parseBlocks(ctx, ctx.blockTokens());
  for (const { node } of resolver.unplaced()) {
    children.push(standingAlone(node));
  }
  finishConnections(ctx.connections, children, previous, resolver.minted);
  const body: SlateBody = { children: children.length > 0 ? children : [{ type: 'p', children: [{ text: '' }] }] };
  assertBodySize(body);
  return { body, minted: resolver.minted };
}

/**
 * Connections after the whole body is read: a line without `node=` claims the first stored connection to
 * the same target that no line names (Body syntax rule 5); `when` is resolved against the body's elements
 * (ids, or keys of this call); at most LIMITS.outgoingConnections.
 */
function finishConnections(
  pending: readonly PendingConnection[],
  children: BlockNode[],
  previous: BodyIndex,
  minted: Record<string, string>,
): void {
  if (pending.length === 0) return;
  if (pending.length > LIMITS.outgoingConnections) {
    throw new WaymarkError(
      'CONNECTION_LIMIT_EXCEEDED',
      `a bit has at most ${LIMITS.outgoingConnections} outgoing connections; the body has ${pending.length}`,
      { max: LIMITS.outgoingConnections },
    );
  }
  const named = new Set<string>();
  for (const { node, at } of pending) {
    if (node.id === null) continue;
    const stored = previous.get(node.id);
    if (!stored || stored.kind !== 'connection') {
      throw new WaymarkError('CONNECTION_NOT_FOUND', `line ${at.line}: this bit has no connection ${quote(node.id)}`, { connection_id: quote(node.id), line: at.line });
    }
    if (named.has(node.id)) throw invalid(at, `connection ${quote(node.id)} is written more than once`);
    if (stored.node.target_bit_id !== node.target_bit_id) {
      throw invalid(at, `connection ${node.id} goes to ${stored.node.target_bit_id}; a connection's target cannot change (remove it and add a new line)`);
    }
    named.add(node.id);
  }
  const unclaimed = [...previous.values()].flatMap((v) => (v.kind === 'connection' && !named.has(v.node.id!) ? [v.node] : []));
  for (const { node } of pending) {
    if (node.id !== null) continue;
    const i = unclaimed.findIndex((c) => c.target_bit_id === node.target_bit_id);
    if (i >= 0) node.id = unclaimed.splice(i, 1)[0].id;
  }
  if (!pending.some((p) => p.when)) return;
  const elements = indexBody({ children });
  for (const { node, when, at } of pending) {
    if (!when) continue;
    node.params = { when: resolveWhen(when, elements, minted, at), ...node.params };
  }
}

function resolveWhen(
  when: { ref: string; values: string[] },
  elements: BodyIndex,
  minted: Record<string, string>,
  at: Parameters<typeof invalid>[0],
): ConnectionCondition {
  const id = minted[when.ref] ?? when.ref;
  const found = elements.get(id);
  if (found?.kind === 'item' && found.element.type === 'check-list') {
    if (when.values.length !== 1 || (when.values[0] !== 'checked' && when.values[0] !== 'unchecked')) {
      throw invalid(at, `when=${quote(when.ref)}:… on a check-list item is checked or unchecked`);
    }
    return { element_id: id, checked: when.values[0] === 'checked' };
  }
  if (found?.kind === 'element' && (found.node.type === 'dropdown' || found.node.type === 'radio-button')) {
    const element: ElementNode = found.node;
    const options = new Set((element.items ?? []).map((i) => i.id));
    const optionIds = when.values.map((v) => minted[v] ?? v);
    const unknown = optionIds.filter((o) => !options.has(o));
    if (unknown.length > 0) throw invalid(at, `when=: ${quote(unknown.join(', '))} is not an option of ${element.type} ${id}`);
    return { element_id: id, option_ids: optionIds };
  }
  throw invalid(at, `when= names ${quote(when.ref)}, which is neither a dropdown or radio-button of this body nor a check-list item`);
}
