/**
 * Bit connection: `bit-connection`, a block void for one outgoing connection, written as a line of its own
 * `[<label>](bit-connection:<target>?node=<id>&when=…&preview=0…)` (authoring-interface.md, "Bit-to-bit
 * connection"). The rules across a body's connections (limit, claims, `when`) are in ../connection-rules.ts.
 */
import { z } from 'zod';
import { connectionLabel } from '../connections.js';
import { UUID_PATTERN } from '../ids.js';
import type { ParseContext } from '../markdown/context.js';
import { CONNECTION_SCHEME, formatConnectionUrl, parseConnectionUrl } from '../markdown/connection-url.js';
import { escapeInline } from '../markdown/escape.js';
import type { LinkLine } from '../markdown/lines.js';
import { targetNotFound, unsupported } from '../problems.js';
import { CONNECTION_FLAGS, emptyVoidChildren, type ConnectionParams, type VoidChildren } from '../slate.js';
import { STRING, VOID_CHILDREN, voidChildren } from './input.js';
import { LABEL_TEXT } from './text-contexts.js';
import type { Construct, NodeHandler, ShapeFields } from './types.js';

const WHEN = 'is {element_id, option_ids: [..]} or {element_id, checked: boolean}';

/**
 * A condition on a connection (authoring-interface.md, Body syntax rule 4): on the options chosen of an
 * element, or on a check-list item being checked or not. Other fields of it are dropped.
 */
export const whenShape = z.union(
  [z.object({ element_id: z.string(), option_ids: z.array(z.string()) }), z.object({ element_id: z.string(), checked: z.boolean() })],
  { error: WHEN },
);

export type ConnectionCondition = z.output<typeof whenShape>;

const FLAG = z.boolean({ error: 'must be a boolean (false hides it)' }).optional();
const UNKNOWN_PARAMETER = `unknown parameter; allowed: when, ${CONNECTION_FLAGS.join(', ')}`;

const connectionShape = z.strictObject({
  type: z.literal('bit-connection'),
  id: z.string({ error: 'a connection id is a string, or null for a new connection' }).min(1, { error: 'a connection id is a string, or null for a new connection' }).nullish(),
  target_bit_id: STRING.regex(UUID_PATTERN, { error: 'must be a bit id (UUID)' }),
  label: z.string({ error: 'must be a string or null' }).nullish(),
  params: z
    .strictObject(
      { when: whenShape.nullish(), ...(Object.fromEntries(CONNECTION_FLAGS.map((f) => [f, FLAG])) as Record<(typeof CONNECTION_FLAGS)[number], typeof FLAG>) },
      { error: (issue) => (issue.code === 'unrecognized_keys' ? UNKNOWN_PARAMETER : 'must be an object') },
    )
    .nullish(),
  children: VOID_CHILDREN,
});

/** One outgoing connection, a block void. */
export interface ConnectionNode extends Omit<ShapeFields<typeof connectionShape>, 'label' | 'params'> {
  /** The connection_id; null for a line the caller just added (services assign it). */
  id: string | null;
  /** null stands for the line label `→` */
  label: string | null;
  params: ConnectionParams;
  children: VoidChildren;
}

/** A connection line as read: the node, and its `when=` as written (resolved once the body is read). */
export function connectionFromLine(ctx: ParseContext, match: LinkLine, line: number): ConnectionNode {
  const parsed = parseConnectionUrl(match.href, ctx.names !== undefined);
  if (!parsed.ok) throw unsupported(ctx.at(line), `connection line: ${parsed.message}`);
  const target = ctx.names ? ctx.names.bit(parsed.value.target) : parsed.value.target;
  if (target === undefined) throw targetNotFound('BIT_NOT_FOUND', ctx.at(line), parsed.value.target);
  const node: ConnectionNode = {
    type: 'bit-connection',
    id: parsed.value.node,
    target_bit_id: target,
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

const connection: NodeHandler<ConnectionNode, typeof connectionShape> = {
  standsIn: ['block', 'li'],
  shape: connectionShape,
  input(fields, step) {
    const params: ConnectionParams = {};
    const given = fields.params ?? {};
    if (given.when) params.when = given.when;
    // A part of the preview card is shown unless hidden: only `false` is kept.
    for (const f of CONNECTION_FLAGS) if (given[f] === false) params[f] = false;
    const node: ConnectionNode = {
      type: 'bit-connection',
      id: fields.id ?? null,
      target_bit_id: fields.target_bit_id,
      label: connectionLabel(fields.label ?? null),
      params,
      children: voidChildren(fields.children, step.path),
    };
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

