/** What the container constructs (quote, list, list item) share when their close token is reached. */
import type { BlockWalk } from './types.js';

/** Closes the innermost container; Slate needs a child in every element: an empty quote or item holds one empty paragraph. */
export function closeContainer(walk: BlockWalk): void {
  const closed = walk.close();
  if (closed.children.length === 0) closed.children.push({ type: closed.type === 'li' ? 'lic' : 'p', children: [{ text: '' }] });
}
