/**
 * slateToBody: a body given as Slate (content_format `slate`, and reference_content) → the stored body.
 * Slate is the complete document (update_bit rule 1): its shape is checked node by node, element props and
 * items against their definitions, urls for safety; missing ids are minted. Walked with an explicit stack,
 * since a client can send any depth.
 */
import { WaymarkError, validationError } from '../errors.js';
import { OutputBudget } from './budget.js';
import { indexBody } from './body-index.js';
import { handlerOf } from './constructs/index.js';
import { isObj, textLeaf } from './constructs/input.js';
import { normaliseList } from './constructs/list.js';
import type { InputStep, Obj, Place } from './constructs/types.js';
import { defaultNewId, UUID_PATTERN } from './ids.js';
import { LIMITS } from './limits.js';
import { invalid } from './problems.js';
import { assertBodySize } from './size.js';
import type { BlockNode, ConnectionNode, ListNode, SlateBody, SlateNode } from './slate.js';
import { quote } from './quote.js';

interface Work {
  value: unknown;
  path: string;
  place: Place;
  out: SlateNode[];
  depth: number;
}

/** Whether a node of `type` may stand in `place`: its construct says where (an element by its placement). */
function allows(place: Place, type: string): boolean {
  return handlerOf(type)?.standsIn.includes(place) ?? false;
}

export interface SlateInputOptions {
  previous?: SlateBody;
  newId?: () => string;
}

export function slateToBody(nodes: unknown, opts: SlateInputOptions = {}): SlateBody {
  const newId = opts.newId ?? defaultNewId;
  const input = isObj(nodes) && Array.isArray(nodes.children) ? nodes.children : nodes;
  if (!Array.isArray(input)) throw invalid('bit_body', 'a Slate body is an array of nodes (or {children: [...]})');
  const ids = new Set<string>();
  const connections: ConnectionNode[] = [];
  const lists: ListNode[] = [];
  const claimId = (value: unknown, path: string): string => {
    if (value === undefined || value === null) return newId();
    // Ids are UUIDs (authoring-interface.md, "Resources"): a made-up one would print as an anchor that the
    // markdown form cannot write back, or clash with an element key of the same text.
    if (typeof value !== 'string' || !UUID_PATTERN.test(value)) throw invalid(path, 'an id is a UUID as get_bit returned it; leave it out on a new node and one is made');
    if (ids.has(value)) throw invalid(path, `id ${quote(value)} is used by more than one node`);
    ids.add(value);
    return value;
  };

  const root: SlateNode[] = [];
  const stack: Work[] = [];
  for (let i = input.length - 1; i >= 0; i--) stack.push({ value: input[i], path: `bit_body[${i}]`, place: 'block', out: root, depth: 1 });

  // Each node is charged at least the 11 bytes of `{"text":""}`, and its text or url: an input that cannot fit
  // stops before the rest of it is checked and copied.
  const budget = new OutputBudget();
  // One step object for the whole walk, its place fields set per node: bodies hold hundreds of thousands of nodes.
  const step: InputStep = {
    path: '',
    depth: 0,
    out: root,
    budget,
    claimId,
    children(value: Obj, place: Place, into: SlateNode[], depth: number, emptyFill?: SlateNode) {
      const children = value.children;
      const path = step.path;
      if (!Array.isArray(children)) throw invalid(`${path}.children`, 'must be an array of nodes');
      if (children.length === 0 && emptyFill) into.push(emptyFill);
      for (let i = children.length - 1; i >= 0; i--) stack.push({ value: children[i], path: `${path}.children[${i}]`, place, out: into, depth });
    },
    list: (node: ListNode) => lists.push(node),
    connection: (node: ConnectionNode) => connections.push(node),
  };
  while (stack.length > 0) {
    const { value, path, place, out, depth } = stack.pop()!;
    budget.spend(11, 1);
    if (depth > LIMITS.bodyDepth) {
      throw validationError([{ path, message: `the body is nested more than ${LIMITS.bodyDepth} deep; flatten it` }], undefined, { max_depth: LIMITS.bodyDepth });
    }
    if (!isObj(value)) throw invalid(path, 'must be a node object');
    if (value.type === undefined) {
      if (place !== 'inline' && place !== 'link' && place !== 'code') throw invalid(path, 'text belongs inside a paragraph, heading, cell or link');
      const leaf = textLeaf(value, path, place !== 'code');
      budget.spend(leaf.text.length);
      out.push(leaf);
      continue;
    }
    const type = value.type;
    if (typeof type !== 'string' || !allows(place, type)) {
      throw invalid(`${path}.type`, `a ${quote(String(type))} node cannot stand here`);
    }
    step.path = path;
    step.depth = depth;
    step.out = out;
    handlerOf(type)!.input(value, step);
  }
  for (const list of lists) normaliseList(list);
  const body: SlateBody = { children: root.length > 0 ? (root as BlockNode[]) : [{ type: 'p', children: [{ text: '' }] }] };
  finishConnections(body, connections, opts.previous);
  assertBodySize(body);
  return body;
}

/** The same connection rules as a markdown body: at most 20, `when` naming this body's options, claims. */
function finishConnections(body: SlateBody, connections: ConnectionNode[], previous: SlateBody | undefined): void {
  if (connections.length === 0) return;
  if (connections.length > LIMITS.outgoingConnections) {
    throw new WaymarkError('CONNECTION_LIMIT_EXCEEDED', `a bit has at most ${LIMITS.outgoingConnections} outgoing connections`, {
      max: LIMITS.outgoingConnections,
    });
  }
  const index = indexBody(body);
  for (const c of connections) {
    const when = c.params.when;
    if (!when) continue;
    const found = index.get(when.element_id);
    const ok =
      'checked' in when
        ? found?.kind === 'item' && found.element.type === 'check-list'
        : found?.kind === 'element' &&
          (found.node.type === 'dropdown' || found.node.type === 'radio-button') &&
          when.option_ids.every((o) => (found.node.items ?? []).some((i) => i.id === o));
    if (!ok) throw invalid('bit_body', `a connection's when names ${quote(when.element_id)}, not an option of a dropdown or radio-button, or a check-list item, of this body`);
  }
  const named = new Set(connections.flatMap((c) => (c.id === null ? [] : [c.id])));
  const unclaimed = [...indexBody(previous).values()].flatMap((v) => (v.kind === 'connection' && !named.has(v.node.id!) ? [v.node] : []));
  for (const c of connections) {
    if (c.id !== null) continue;
    const i = unclaimed.findIndex((u) => u.target_bit_id === c.target_bit_id);
    if (i >= 0) c.id = unclaimed.splice(i, 1)[0].id;
  }
}
