/** The step's body as markdown with its anchors and `(required)` marks: exactly what get_bit prints. */
import { bodyToMarkdown, type SlateBody } from '../content/index.js';

export function stepBodyMarkdown(body: SlateBody): string {
  return bodyToMarkdown(body);
}
