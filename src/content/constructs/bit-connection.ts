/**
 * Bit connection: `bit-connection`, a block void for one outgoing connection, written as a line of its own
 * `[<label>](bit-connection:<target>?node=<id>&when=…&preview=0…)` (authoring-interface.md, "Bit-to-bit
 * connection"). The rules across a body's connections (limit, claims, `when`) are in ../connection-rules.ts.
 */
import { connectionLabel } from '../connections.js';
import { UUID_PATTERN } from '../ids.js';
import type { ParseContext } from '../markdown/context.js';
import { CONNECTION_SCHEME, formatConnectionUrl, parseConnectionUrl } from '../markdown/connection-url.js';
import { escapeInline } from '../markdown/escape.js';
import type { LinkLine } from '../markdown/lines.js';
import { invalid, unsupported } from '../problems.js';
import { CONNECTION_FLAGS, emptyVoidChildren, type ConnectionNode, type ConnectionParams } from '../slate.js';
import { isObj, onlyKeys, str, voidChildren } from './input.js';
import { LABEL_TEXT } from './text-contexts.js';
import type { Construct, NodeHandler, Obj } from './types.js';

/** A connection line as read: the node, and its `when=` as written (resolved once the body is read). */
export function connectionFromLine(ctx: ParseContext, match: LinkLine, line: number): ConnectionNode {
  const parsed = parseConnectionUrl(match.href);
  if (!parsed.ok) throw unsupported(ctx.at(line), `connection line: ${parsed.message}`);
  const node: ConnectionNode = {
    type: 'bit-connection',
    id: parsed.value.node,
    target_bit_id: parsed.value.target,
    label: connectionLabel(match.text),
    params: parsed.value.params,
    children: emptyVoidChildren(),
  };
  ctx.connections.push({ node, when: parsed.value.when, at: ctx.at(line) });
  return node;
}

export function connectionLine(node: ConnectionNode): string {
  const text = node.label === null ? '→' : escapeInline(node.label, LABEL_TEXT).replace(/\n/g, '&#xA;');
  return `[${text}](${formatConnectionUrl(node)})`;
}

function fromInput(value: Obj, path: string): ConnectionNode {
  onlyKeys(value, ['type', 'children', 'id', 'target_bit_id', 'label', 'params'], path);
  const id = value.id ?? null;
  if (id !== null && (typeof id !== 'string' || id === '')) throw invalid(`${path}.id`, 'a connection id is a string, or null for a new connection');
  const target = str(value, 'target_bit_id', path);
  if (!UUID_PATTERN.test(target)) throw invalid(`${path}.target_bit_id`, 'must be a bit id (UUID)');
  const given = value.label ?? null;
  if (given !== null && typeof given !== 'string') throw invalid(`${path}.label`, 'must be a string or null');
  const label = connectionLabel(given);
  const params: ConnectionParams = {};
  const raw = value.params ?? {};
  if (!isObj(raw)) throw invalid(`${path}.params`, 'must be an object');
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'when') {
      if (v === undefined || v === null) continue;
      const w = v as Obj;
      const okOptions = isObj(w) && typeof w.element_id === 'string' && Array.isArray(w.option_ids) && w.option_ids.every((o) => typeof o === 'string');
      const okChecked = isObj(w) && typeof w.element_id === 'string' && typeof w.checked === 'boolean';
      if (!okOptions && !okChecked) {
        throw invalid(`${path}.params.when`, 'is {element_id, option_ids: [..]} or {element_id, checked: boolean}');
      }
      params.when = okOptions ? { element_id: w.element_id as string, option_ids: w.option_ids as string[] } : { element_id: w.element_id as string, checked: w.checked as boolean };
    } else if ((CONNECTION_FLAGS as readonly string[]).includes(k)) {
      if (typeof v !== 'boolean') throw invalid(`${path}.params.${k}`, 'must be a boolean (false hides it)');
      if (v === false) params[k as (typeof CONNECTION_FLAGS)[number]] = false;
    } else throw invalid(`${path}.params.${k}`, `unknown parameter; allowed: when, ${CONNECTION_FLAGS.join(', ')}`);
  }
  return { type: 'bit-connection', id: id as string | null, target_bit_id: target, label, params, children: voidChildren(value, path) };
}

const connection: NodeHandler<ConnectionNode> = {
  standsIn: ['block', 'li'],
  input(value, step) {
    const node = fromInput(value, step.path);
    if (node.id !== null) step.claimId(node.id, `${step.path}.id`);
    step.connection(node);
    step.out.push(node);
  },
  render: { block: { block: (node, _task, w) => w.line(connectionLine(node)) } },
  // A connection is the way on, not prose.
  text: 'skip',
  inventory(c, out) {
    const key = c.id ?? c.label ?? '→';
    out.set(key, { id: key, type: 'bit-connection', label: c.label });
    return false;
  },
};

export const bitConnections: Construct<'bit-connection'> = {
  name: 'bit connection',
  nodes: { 'bit-connection': connection as NodeHandler },
  syntax: () => [
    {
      construct: 'outgoing connection',
      form: `[<label>](${CONNECTION_SCHEME}:<target_bit_id>?node=<connection_id>&when=<element_id>:<option_id>[,<option_id>]&${CONNECTION_FLAGS.map((f) => `${f}=0`).join('&')})`,
      notes: 'its own line; label → = no label; without node= it adds a connection or claims the unclaimed stored one to that target; when=<check_list_item_id>:checked|unchecked',
    },
  ],
};

