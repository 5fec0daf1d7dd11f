/**
 * The rules across a bit's outgoing connections, stated once for markdown input, Slate input and the
 * connection tools (authoring-interface.md, "Bit-to-bit connection" and Body syntax rules 4 and 5):
 *
 * - a bit has at most LIMITS.outgoingConnections;
 * - a connection named by id is one of the bit's stored connections, written once, and keeps its target;
 * - a connection without an id claims the first stored one to the same target that nothing names;
 * - `when` names an element of the same body that a connection can depend on: what it can be is its
 *   definition's `when` capability (options of the element, or one item checked or not).
 */
import { WaymarkError } from '../errors.js';
import type { BodyIndex, IndexedNode } from './body-index.js';
import { ELEMENTS, ELEMENT_TYPES, choiceList } from './elements/index.js';
import { LIMITS } from '../limits/index.js';
import { invalid, type SourceLine } from './problems.js';
import { quote } from '../quote.js';
import type { ConnectionCondition, ConnectionNode } from './slate.js';

/** CONNECTION_LIMIT_EXCEEDED when a bit would have `count` outgoing connections, more than the limit. */
export function assertConnectionCount(count: number): void {
  if (count <= LIMITS.outgoingConnections) return;
  throw new WaymarkError(
    'CONNECTION_LIMIT_EXCEEDED',
    `A bit has at most ${LIMITS.outgoingConnections} outgoing connections; this one would have ${count}. Remove one first (remove_connection, or leave its line out of the body).`,
    { max: LIMITS.outgoingConnections },
  );
}

/** The one refusal of a connection id that is not one of the bit's connections. */
export function connectionNotFound(id: string, at?: SourceLine): WaymarkError {
  return new WaymarkError(
    'CONNECTION_NOT_FOUND',
    `${at ? `line ${at.line}: ` : ''}this bit has no connection ${quote(id)}: write a new connection without an id (it gets one), and keep stored ones as get_bit returned them`,
    { connection_id: quote(id), ...(at ? { line: at.line } : {}) },
  );
}

/**
 * A connection named by id, against the stored one of that id (undefined when there is none): it exists
 * and keeps its target.
 */
export function checkNamedConnection(node: { id: string; target_bit_id: string }, stored: { target_bit_id: string } | undefined, at?: SourceLine): void {
  if (!stored) throw connectionNotFound(node.id, at);
  if (stored.target_bit_id !== node.target_bit_id) {
    throw invalid(at ?? 'bit_body', `connection ${node.id} goes to ${stored.target_bit_id}; a connection's target cannot change (remove it and add a new line)`);
  }
}

/**
 * Body syntax rule 5: each connection without an id takes the id of the first stored connection to the same
 * target that no connection of the body names, in document order.
 */
export function claimConnections(nodes: readonly ConnectionNode[], stored: BodyIndex): void {
  const named = new Set(nodes.flatMap((c) => (c.id === null ? [] : [c.id])));
  const unclaimed = [...stored.values()].flatMap((v) => (v.kind === 'connection' && !named.has(v.node.id!) ? [v.node] : []));
  for (const node of nodes) {
    if (node.id !== null || unclaimed.length === 0) continue;
    const i = unclaimed.findIndex((c) => c.target_bit_id === node.target_bit_id);
    if (i >= 0) node.id = unclaimed.splice(i, 1)[0].id;
  }
}

/** How a connection can depend on the node `when` names: its element's capability, or null when it cannot. */
function whenKind(found: IndexedNode | undefined): 'options' | 'item-checked' | null {
  if (found?.kind === 'element') return ELEMENTS[found.node.type].when === 'options' ? 'options' : null;
  if (found?.kind === 'item') return ELEMENTS[found.element.type].when === 'item-checked' ? 'item-checked' : null;
  return null;
}

/** What `when` may name, from the definitions: "a dropdown or radio-button of this body, or a check-list item". */
function whenSources(): string {
  const byOptions = ELEMENT_TYPES.filter((t) => ELEMENTS[t].when === 'options');
  const byItem = ELEMENT_TYPES.filter((t) => ELEMENTS[t].when === 'item-checked');
  return [
    ...(byOptions.length > 0 ? [`an option of a ${byOptions.join(' or ')} of this body`] : []),
    ...(byItem.length > 0 ? [`a ${byItem.join(' or ')} item of this body`] : []),
  ].join(', or ');
}

/** The label a person reads for an element (its `label` prop) or an item (its text field), or null. */
function labelOf(found: IndexedNode): string | null {
  const value = found.kind === 'element' ? found.node.props.label : found.kind === 'item' ? found.node[ELEMENTS[found.element.type].items?.textField ?? 'text'] : null;
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * What a `when` of this body can name, as an error lists it: the elements whose options can decide and the items
 * that can be checked, each by the ref the caller wrote (a key of this call, else the id) and its label.
 */
function whenCandidates(elements: BodyIndex, refOf: (id: string) => string): string {
  const candidates = [...elements.entries()].filter(([, found]) => whenKind(found) !== null).map(([id, found]) => ({ id: refOf(id), label: labelOf(found) }));
  return candidates.length > 0 ? `this body's are (ref "label"): ${choiceList(candidates)}` : 'this body has none';
}

function checkOptions(elementId: string, optionIds: readonly string[], found: IndexedNode, at: SourceLine | string, refOf: (id: string) => string = (id) => id): void {
  if (found.kind !== 'element') return;
  const items = found.node.items ?? [];
  const options = new Set(items.map((i) => i.id));
  const unknown = optionIds.filter((o) => !options.has(o));
  if (unknown.length === 0) return;
  const field = ELEMENTS[found.node.type].items?.textField ?? 'text';
  const valid = choiceList(items.map((i) => ({ id: refOf(i.id), label: typeof i[field] === 'string' ? (i[field] as string) : null })));
  throw invalid(at, `when=: ${quote(unknown.map(refOf).join(', '))} is not an option of ${found.node.type} ${refOf(elementId)}; its options (ref "label") are: ${valid}`);
}

/**
 * A `when=` of a connection line (`<ref>:<value>[,<value>]`, refs being ids or keys of this call) as the
 * condition it stands for.
 */
export function conditionFromLine(when: { ref: string; values: string[] }, elements: BodyIndex, minted: Record<string, string>, at: SourceLine): ConnectionCondition {
  const id = minted[when.ref] ?? when.ref;
  const found = elements.get(id);
  const kind = whenKind(found);
  // An error names nodes as the caller wrote them: by their key when this call minted their id.
  const keys = new Map(Object.entries(minted).map(([key, minted]) => [minted, key]));
  const refOf = (nodeId: string) => keys.get(nodeId) ?? nodeId;
  if (kind === 'item-checked') {
    if (when.values.length !== 1 || (when.values[0] !== 'checked' && when.values[0] !== 'unchecked')) {
      throw invalid(at, `when=${quote(when.ref)}:… on a ${(found as Extract<IndexedNode, { kind: 'item' }>).element.type} item is checked or unchecked`);
    }
    return { element_id: id, checked: when.values[0] === 'checked' };
  }
  if (kind === 'options') {
    const optionIds = when.values.map((v) => minted[v] ?? v);
    checkOptions(id, optionIds, found!, at, refOf);
    return { element_id: id, option_ids: optionIds };
  }
  throw invalid(at, `when= names ${quote(when.ref)}, which is not ${whenSources()}; ${whenCandidates(elements, refOf)}`);
}

/** A condition given as Slate (`params.when`): the same rule as a line's. */
export function checkCondition(when: ConnectionCondition, elements: BodyIndex, at: string): void {
  const found = elements.get(when.element_id);
  const kind = whenKind(found);
  if (kind === 'options' && 'option_ids' in when) return checkOptions(when.element_id, when.option_ids, found!, at);
  if (kind === 'item-checked' && 'checked' in when) return;
  throw invalid(at, `a connection's when names ${quote(when.element_id)}, which is not ${whenSources()}; ${whenCandidates(elements, (id) => id)}`);
}
