/**
 * Reference content: a Slate node array in the document model of bit bodies, without interactive
 * elements (authoring-interface.md, Reference). Checked here and turned into the text that search
 * indexes and the derived abstract is cut from.
 */
import { elementTypeForStep, isElementType } from '../content/elements/index.js';
import { LIMITS } from '../content/limits.js';
import { assertSafeUrl } from '../content/url.js';
import { slateToBody } from '../content/slate-input.js';
import { WaymarkError, validationError } from '../errors.js';

export type SlateNode = { text: string } | { type: string; children: SlateNode[]; [prop: string]: unknown };

/**
 * An interactive element, by its Slate type name or by its step type name (authoring-interface.md,
 * Interactive elements): the element registry is the one list of them.
 */
function isInteractive(type: string): boolean {
  return isElementType(type) || elementTypeForStep(type) !== undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks the node array (or its JSON text) and answers it typed. Refuses: a non-array or empty array, a node that is neither
 * a text leaf (`text`) nor an element (`type` and `children`) with VALIDATION_ERROR; nesting beyond the
 * body depth limit with VALIDATION_ERROR; more than the body size limit with BODY_TOO_LARGE; an interactive
 * element with INTERACTIVE_ELEMENT_NOT_ALLOWED; a link or media url of an unsafe scheme with VALIDATION_ERROR.
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
  const walk = (nodes: unknown[], path: string, depth: number) => {
    if (depth > LIMITS.bodyDepth) {
      throw validationError([{ path, message: `reference_content nests deeper than ${LIMITS.bodyDepth} levels here; flatten it` }], undefined, { max_depth: LIMITS.bodyDepth });
    }
    nodes.forEach((node, i) => {
      const at = `${path}.${i}`;
      if (!isRecord(node)) throw validationError([{ path: at, message: 'a Slate node must be an object' }]);
      if ('text' in node && !('children' in node)) {
        if (typeof node.text !== 'string') throw validationError([{ path: `${at}.text`, message: 'must be a string' }]);
        return;
      }
      if (typeof node.type !== 'string' || !Array.isArray(node.children)) {
        throw validationError([{ path: at, message: 'a Slate node is a text leaf {"text": …} or an element {"type": …, "children": [...]}' }]);
      }
      if (node.type === 'bit-connection') {
        throw validationError([{ path: at, message: 'a reference holds no bit connections: they join bits (connect_bits, or a connection line in a bit body)' }]);
      }
      if (isInteractive(node.type)) {
        throw new WaymarkError(
          'INTERACTIVE_ELEMENT_NOT_ALLOWED',
          `reference_content holds an interactive element (${node.type}) at ${at}; references hold prose, links and media only. Put interactive elements in a bit body.`,
          { type: node.type, path: at },
        );
      }
      // Links and media in a reference follow the url rule of bodies: no javascript: and the like.
      if (typeof node.url === 'string') assertSafeUrl(node.url, `${at}.url`);
      walk(node.children, `${at}.children`, depth + 1);
    });
  };
  walk(content, 'reference_content', 1);
  // The same document model as bit bodies (node types, marks, void shapes, ids on links and media).
  return slateToBody(content).children as SlateNode[];
}

/**
 * The plain text of a body: an element whose children include a text leaf is a run of inline text and
 * is concatenated; an element of elements is a stack of blocks, one line each.
 */
export function referenceText(nodes: SlateNode[]): string {
  const text = (node: SlateNode): string => {
    if (!('children' in node)) return node.text;
    const inline = node.children.some((c) => !('children' in c));
    return node.children.map(text).join(inline ? '' : '\n');
  };
  return nodes
    .map(text)
    .join('\n')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** The length an abstract derived from the body aims at: a paragraph's worth, well under the 2048 limit. */

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

