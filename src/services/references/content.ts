/**
 * Reference content: a Slate node array in the document model of bit bodies, without interactive
 * elements (authoring-interface.md, Reference). Checked and turned into text by the body's own functions
 * (slateToBody, bodyText), so a reference and a bit read the same nodes the same way.
 */
import { bodyText, slateToBody } from '../../content/index.js';
import { LIMITS } from '../../limits/index.js';
import { WaymarkError, validationError } from '../../errors.js';

export type SlateNode = { text: string } | { type: string; children: SlateNode[]; [prop: string]: unknown };

/**
 * Checks the node array (or its JSON text) and answers it typed. Refuses: a non-array or empty array with
 * VALIDATION_ERROR; more than the body size limit with BODY_TOO_LARGE; then what a Slate bit body refuses
 * (shape, depth, unsafe urls: VALIDATION_ERROR), an interactive element (INTERACTIVE_ELEMENT_NOT_ALLOWED)
 * and a bit connection (VALIDATION_ERROR).
 */
export function checkReferenceContent(raw: unknown): SlateNode[] {
  // A JSON-stringified array is accepted, as it is for bit_body (authoring-interface.md, add_bit).
  let content = raw;
  if (typeof raw === 'string') {
    try {
      content = JSON.parse(raw);
    } catch {
      throw validationError([{ path: 'reference_content', message: 'a string must be a JSON-stringified array of Slate nodes' }]);
    }
  }
  if (!Array.isArray(content) || content.length === 0) {
    throw validationError([{ path: 'reference_content', message: 'must be a non-empty array of Slate nodes, e.g. [{"type":"p","children":[{"text":"…"}]}]' }]);
  }
  const bytes = Buffer.byteLength(JSON.stringify(content), 'utf8');
  if (bytes > LIMITS.bodyBytes) {
    throw new WaymarkError('BODY_TOO_LARGE', `reference_content is ${bytes} bytes; at most ${LIMITS.bodyBytes} are accepted. Split it into several references.`, {
      max_bytes: LIMITS.bodyBytes,
    });
  }
  return slateToBody(content, { of: 'reference_content' }).children as SlateNode[];
}

/** The plain text of reference content, as search indexes it: the body's text rule (one line per text block). */
export function referenceText(nodes: SlateNode[]): string {
  return bodyText({ children: nodes as Parameters<typeof bodyText>[0]['children'] });
}

/**
 * An abstract cut from the body text: whole sentences up to LIMITS.derivedAbstractChars characters; when the
 * first sentence alone is longer, whole words up to that length and an ellipsis. Null for a body without text.
 */
export function deriveAbstract(text: string): string | null {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return null;
  if (flat.length <= LIMITS.derivedAbstractChars) return flat;
  const head = flat.slice(0, LIMITS.derivedAbstractChars + 1);
  let cut = -1;
  for (const match of head.matchAll(/[.!?…](?=\s)/g)) cut = match.index + 1;
  if (cut > 0) return head.slice(0, cut);
  const space = head.lastIndexOf(' ', LIMITS.derivedAbstractChars - 1);
  return `${head.slice(0, space > 0 ? space : LIMITS.derivedAbstractChars - 1)}…`;
}

