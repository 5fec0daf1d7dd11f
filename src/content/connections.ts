/** Body edits for connection nodes that the connection tools make without a markdown round trip. */
import type { ConnectionNode, SlateBody, SlateNode } from './slate.js';
import { childrenOf, emptyVoidChildren, walk } from './slate.js';

/**
 * A connection's label as stored: `→` ("stands for no label", Body syntax), empty or blank is null; any other
 * is trimmed, as its line reads back. One form for "no label", so get_bit and get_flow agree.
 */
export function connectionLabel(text: string | null): string | null {
  const label = text?.trim() ?? '';
  return label === '' || label === '→' ? null : label;
}

/** Drops the connection nodes `drop` selects, wherever they sit; answers the ids removed. */
export function removeConnections(body: SlateBody, drop: (node: ConnectionNode) => boolean): string[] {
  const removed: string[] = [];
  const filter = (nodes: SlateNode[]): SlateNode[] =>
    nodes.filter((n) => {
      if ((n as { type?: string }).type !== 'bit-connection' || !drop(n as ConnectionNode)) return true;
      removed.push((n as ConnectionNode).id ?? '');
      return false;
    });
  body.children = filter(body.children) as SlateBody['children'];
  walk(body.children, (node) => {
    const children = childrenOf(node);
    if (children.length > 0) (node as { children: SlateNode[] }).children = filter(children);
  });
  // A body never ends up empty: Slate needs at least one block.
  if (body.children.length === 0) body.children.push({ type: 'p', children: [{ text: '' }] });
  return removed;
}

/** A new connection line at the end of the body: it is the last in document order, as its sort_order is. */
export function appendConnection(body: SlateBody, connection: { id: string; target_bit_id: string }): void {
  const node: ConnectionNode = { type: 'bit-connection', id: connection.id, target_bit_id: connection.target_bit_id, label: null, params: {}, children: emptyVoidChildren() };
  const only = body.children.length === 1 ? body.children[0] : null;
  // An empty body is one empty paragraph; the connection takes its place.
  if (only && only.type === 'p' && only.children.length === 1 && 'text' in only.children[0] && only.children[0].text === '' && !('type' in only.children[0])) {
    body.children = [node];
  } else {
    body.children.push(node);
  }
}
