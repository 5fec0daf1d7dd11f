/** Every node of a body that has an id, by id: what "kept" anchors of a rewritten body are matched against. */
import { ELEMENTS, isElementType } from './elements/index.js';
import type { ConnectionNode, ElementItem, ElementNode, ImageNode, LinkNode, SlateBody, SlateNode } from './slate.js';

export type IndexedNode =
  | { kind: 'element'; node: ElementNode }
  | { kind: 'item'; node: ElementItem; element: ElementNode }
  | { kind: 'a'; node: LinkNode }
  | { kind: 'img'; node: ImageNode }
  | { kind: 'connection'; node: ConnectionNode };

export type BodyIndex = Map<string, IndexedNode>;

/** The index of a body; an index already made is answered as it is (a caller that keeps only the index of a large body). */
export function indexBody(body: SlateBody | BodyIndex | undefined): BodyIndex {
  if (body instanceof Map) return body;
  const index: BodyIndex = new Map();
  if (!body) return index;
  // Children are pushed last-first so nodes are met in document order (claims follow it).
  const stack: SlateNode[] = [];
  for (let i = body.children.length - 1; i >= 0; i--) stack.push(body.children[i]);
  while (stack.length > 0) {
    const node = stack.pop()!;
    const type = (node as { type?: unknown }).type;
    if (type === undefined) continue;
    if (type === 'a') index.set((node as LinkNode).id, { kind: 'a', node: node as LinkNode });
    else if (type === 'img') {
      index.set((node as ImageNode).id, { kind: 'img', node: node as ImageNode });
      continue;
    } else if (type === 'bit-connection') {
      const c = node as ConnectionNode;
      if (c.id !== null) index.set(c.id, { kind: 'connection', node: c });
      continue;
    } else if (isElementType(type)) {
      const element = node as ElementNode;
      index.set(element.id, { kind: 'element', node: element });
      for (const item of element.items ?? []) index.set(item.id, { kind: 'item', node: item, element });
      // An inline element holds its link text (which can hold links); a block element is a void.
      if (ELEMENTS[element.type].placement !== 'inline') continue;
    }
    const children = (node as { children?: SlateNode[] }).children;
    if (Array.isArray(children)) for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return index;
}
