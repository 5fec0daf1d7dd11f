/**
 * Turning a bit_body input into the stored Slate body (authoring-interface.md, "Bit": content_format;
 * add_bit: "a JSON-stringified array is accepted"; update_bit rules 1–2).
 */
import { bodyTooLarge, markdownToBody, slateToBody, type ConvertResult, type ElementEntry, type SlateBody } from '../content/index.js';
import { LIMITS } from '../content/limits.js';
import { WaymarkError } from '../errors.js';

export interface BodyInput {
  bit_body: string | unknown[];
  content_format?: 'slate' | 'markdown';
  elements?: ElementEntry[];
}

function invalid(path: string, message: string): WaymarkError {
  return new WaymarkError('VALIDATION_ERROR', `${path}: ${message}`, { issues: [{ path, message }] });
}

/** A JSON array given as a string, when the caller says slate or says nothing and the text is one. */
function asSlateNodes(input: BodyInput): unknown[] | null {
  if (Array.isArray(input.bit_body)) {
    if (input.content_format === 'markdown') throw invalid('bit_body', 'a node array is Slate; pass content_format "slate" or send markdown text');
    return input.bit_body;
  }
  const text = input.bit_body;
  if (input.content_format === 'markdown') return null;
  const looksLikeArray = text.trimStart().startsWith('[');
  if (input.content_format === 'slate' || looksLikeArray) {
    // Refused before JSON.parse builds it: no body of LIMITS.bodyBytes is written this long, even indented.
    if (text.length > LIMITS.slateTextChars) {
      throw bodyTooLarge(`is ${text.length} characters of Slate JSON, more than ${LIMITS.slateTextChars}`, { max_chars: LIMITS.slateTextChars });
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // not JSON: markdown that starts with a bracket, unless the caller said slate
    }
    if (input.content_format === 'slate') throw invalid('bit_body', 'with content_format "slate" the body is a Slate node array (or that array as a JSON string)');
  }
  return null;
}

export function convertBody(input: BodyInput, previous: SlateBody | undefined, newId: () => string): ConvertResult & { format: 'slate' | 'markdown' } {
  const nodes = asSlateNodes(input);
  if (nodes !== null) {
    if (input.elements && input.elements.length > 0) {
      throw invalid('elements', 'elements are not accepted with content_format "slate": the Slate nodes carry their props and items');
    }
    return { body: slateToBody(nodes, { previous, newId }), minted: {}, format: 'slate' };
  }
  const result = markdownToBody(input.bit_body as string, { elements: input.elements, previous, newId });
  return { ...result, format: 'markdown' };
}
