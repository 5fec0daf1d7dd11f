/**
 * The step's body as markdown with its anchors, as get_bit prints it. PLACEHOLDER until the content
 * renderer (bodyToMarkdown) lands: plain text of the blocks.
 */
import { textOf, type SlateBody, type SlateNode } from '../content/slate.js';

export function stepBodyMarkdown(body: SlateBody): string {
  return (body.children as SlateNode[]).map((b) => textOf(b)).filter((t) => t !== '').join('\n\n');
}
