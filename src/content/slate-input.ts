/**
 * slateToBody: a body given as Slate (content_format `slate`, and reference_content) → the stored body.
 * Slate is the complete document (update_bit rule 1): its shape is checked node by node, element props and
 * items against their definitions, urls for safety; missing ids are minted. Walked with an explicit stack,
 * since a client can send any depth.
 */
import { pathText, validationError, WaymarkError } from '../errors.js';
import { assertConnectionCount, checkCondition, checkNamedConnection, claimConnections } from './connection-rules.js';
import { assertTopLevelFloor, OutputBudget } from './budget.js';
import { indexBody, type BodyIndex } from './body-index.js';
import { CONSTRUCTS, type ConstructRegistry } from './constructs/index.js';
import { checkShape, isObj, textLeaf } from './constructs/input.js';
import { normaliseList } from './constructs/list.js';
import type { InputStep, Place } from './constructs/types.js';
import { elementTypeForStep, isElementType } from './elements/index.js';
import { defaultNewId, UUID_PATTERN } from './ids.js';
import { LIMITS } from '../limits/index.js';
import { invalid } from './problems.js';
import { assertBodySize } from './size.js';
import type { BlockNode, ConnectionNode, ListNode, SlateBody, SlateNode } from './slate.js';
import { quote } from '../quote.js';

interface Work {
  value: unknown;
  path: string;
  place: Place;
  out: SlateNode[];
  depth: number;
}

/** Whether a node of `type` may stand in `place`: its construct says where (an element by its placement). */
function allows(constructs: ConstructRegistry, place: Place, type: string): boolean {
  return constructs.handlerOf(type)?.standsIn.includes(place) ?? false;
}

export interface SlateInputOptions {
  /** The stored body ids are kept from, or its index (indexBody) when the caller has let the tree go. */
  previous?: SlateBody | BodyIndex;
  newId?: () => string;
  /** The caller checks the size on the JSON it writes (assertJsonSize) instead of this writing it once more. */
  sizeCheckedByCaller?: boolean;
  /**
   * The node array is the caller's own, parsed for this call (a body sent as JSON text): each top-level node
   * is let go of once it is read, so the input and the body it becomes are not both whole at once.
   */
  release?: boolean;
  /**
   * What the nodes are: a bit body, or a reference's content, which is the same document without
   * interactive elements and connections (authoring-interface.md, Reference). It names the paths too.
   */
  of?: 'bit_body' | 'reference_content';
  /** The constructs the nodes are read with: the built-in ones unless a test brings its own registry. */
  constructs?: ConstructRegistry;
}

/** Paths into a body read as the agent sent it: `bit_body[0].children[1]`, `reference_content[0].children[1]` (pathText). */
function childPath(parent: string, i: number): string {
  return pathText([i], parent);
}

/** Node types a bit body holds and reference content does not (describe_platform says so beside them). */
export const BIT_BODY_ONLY: readonly string[] = ['bit-connection'];

/** What reference content refuses beyond a body's rules: an element (by its type or step type name), a connection. */
function refuseInReference(type: unknown, path: string): void {
  if (typeof type !== 'string') return;
  if (isElementType(type) || elementTypeForStep(type) !== undefined) {
    throw new WaymarkError(
      'INTERACTIVE_ELEMENT_NOT_ALLOWED',
      `reference_content holds an interactive element (${type}) at ${path}; references hold prose, links and media only. Put interactive elements in a bit body.`,
      { type, path },
    );
  }
  if (BIT_BODY_ONLY.includes(type)) {
    throw invalid(path, 'a reference holds no bit connections: they join bits (connect_bits, or a connection line in a bit body)');
  }
}

export function slateToBody(nodes: unknown, opts: SlateInputOptions = {}): SlateBody {
  const newId = opts.newId ?? defaultNewId;
  const constructs = opts.constructs ?? CONSTRUCTS;
  const of = opts.of ?? 'bit_body';
  const input = isObj(nodes) && Array.isArray(nodes.children) ? nodes.children : nodes;
  if (!Array.isArray(input)) throw invalid(of, 'a Slate body is an array of nodes (or {children: [...]})');
  assertTopLevelFloor(input.length);
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
  // Top-level nodes are taken one at a time, each once the one before is read with all it holds (the walk's
  // order is the same as with all of them stacked up front).
  let next = 0;
  const takeTopLevel = (): boolean => {
    if (next >= input.length) return false;
    stack.push({ value: input[next], path: childPath(of, next), place: 'block', out: root, depth: 1 });
    if (opts.release) input[next] = undefined;
    next++;
    return true;
  };

  // Each node is charged at least the 11 bytes of `{"text":""}`, and its text or url: an input that cannot fit
  // stops before the rest of it is checked and copied.
  const budget = new OutputBudget();
  /** The place the children of the node being read stand in: its handler's `holds`. */
  let holds: Place | undefined;
  // One step object for the whole walk, its place fields set per node: bodies hold hundreds of thousands of nodes.
  const step: InputStep = {
    path: '',
    depth: 0,
    out: root,
    budget,
    claimId,
    children(children: unknown, into: SlateNode[], depth: number, emptyFill?: SlateNode) {
      const path = step.path;
      const place = holds!;
      if (!Array.isArray(children)) throw invalid(path, 'a node is a text leaf {"text": …} or an element {"type": …, "children": [...]}');
      if (children.length === 0 && emptyFill) into.push(emptyFill);
      for (let i = children.length - 1; i >= 0; i--) stack.push({ value: children[i], path: childPath(`${path}.children`, i), place, out: into, depth });
    },
    list: (node: ListNode) => lists.push(node),
    connection: (node: ConnectionNode) => connections.push(node),
  };
  while (stack.length > 0 || takeTopLevel()) {
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
    if (of === 'reference_content') refuseInReference(type, path);
    if (typeof type !== 'string' || !allows(constructs, place, type)) {
      throw invalid(`${path}.type`, `a ${quote(String(type))} node cannot stand here`);
    }
    step.path = path;
    step.depth = depth;
    step.out = out;
    const handler = constructs.handlerOf(type)!;
    holds = handler.holds;
    handler.input(checkShape(handler.shape, value, path), step);
  }
  for (const list of lists) normaliseList(list);
  const body: SlateBody = { children: root.length > 0 ? (root as BlockNode[]) : [{ type: 'p', children: [{ text: '' }] }] };
  finishConnections(body, connections, opts.previous);
  if (!opts.sizeCheckedByCaller) assertBodySize(body);
  return body;
}

/** The connection rules of a markdown body (../connection-rules.ts), for connections given as Slate. */
function finishConnections(body: SlateBody, connections: ConnectionNode[], previous: SlateBody | BodyIndex | undefined): void {
  if (connections.length === 0) return;
  assertConnectionCount(connections.length);
  const stored = indexBody(previous);
  for (const c of connections) {
    if (c.id === null) continue;
    const found = stored.get(c.id);
    checkNamedConnection({ id: c.id, target_bit_id: c.target_bit_id }, found?.kind === 'connection' ? found.node : undefined);
  }
  const index = indexBody(body);
  for (const c of connections) if (c.params.when) checkCondition(c.params.when, index, 'bit_body');
  claimConnections(connections, stored);
}
