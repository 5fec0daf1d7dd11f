/** Every node of a body that has an id, by id: what "kept" anchors of a rewritten body are matched against. */
import { isElementType } from './elements/index.js';
import type { ConnectionNode, ElementItem, ElementNode, ImageNode, LinkNode, SlateBody } from './slate.js';
import { walk } from './slate.js';

export type IndexedNode =
  | { kind: 'element'; node: ElementNode }
  | { kind: 'item'; node: ElementItem; element: ElementNode }
  | { kind: 'a'; node: LinkNode }
  | { kind: 'img'; node: ImageNode }
  | { kind: 'connection'; node: ConnectionNode };

export type BodyIndex = Map<string, IndexedNode>;

export function indexBody(body: SlateBody | undefined): BodyIndex {
  const index: BodyIndex = new Map();
  if (!body) return index;
  walk(body.children, (node) => {
    const type = (node as { type?: unknown }).type;
    if (type === 'a') index.set((node as LinkNode).id, { kind: 'a', node: node as LinkNode });
    else if (type === 'img') index.set((node as ImageNode).id, { kind: 'img', node: node as ImageNode });
    else if (type === 'bit-connection') {
      const c = node as ConnectionNode;
      if (c.id !== null) index.set(c.id, { kind: 'connection', node: c });
    } else if (isElementType(type)) {
      const element = node as ElementNode;
      index.set(element.id, { kind: 'element', node: element });
      for (const item of element.items ?? []) index.set(item.id, { kind: 'item', node: item, element });
    }
  });
  return index;
}
