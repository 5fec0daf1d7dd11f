/**
 * Turning a bit_body input into the stored Slate body (authoring-interface.md, "Bit": content_format;
 * add_bit: "a JSON-stringified array is accepted"; update_bit rules 1–2).
 */
import {
  assertJsonSize,
  bodyTooLarge,
  collectCitations,
  collectConnections,
  indexBody,
  markdownToBody,
  nodeInventory,
  slateToBody,
  type BodyIndex,
  type ConvertResult,
  type ElementEntry,
  type InventoryEntry,
  type SlateBody,
} from '../../content/index.js';
import { LIMITS } from '../../limits/index.js';
import { WaymarkError } from '../../errors.js';

export interface BodyInput {
  bit_body: string | unknown[];
  content_format?: 'slate' | 'markdown';
  elements?: ElementEntry[];
}

function invalid(path: string, message: string): WaymarkError {
  return new WaymarkError('VALIDATION_ERROR', `${path}: ${message}`, { issues: [{ path, message }] });
}

/**
 * A JSON array given as a string, when the caller says slate or says nothing and the text is one (`parsed`:
 * made here from the text, so the conversion may let its nodes go as it reads them).
 */
function asSlateNodes(input: BodyInput, ownInput: boolean): { nodes: unknown[]; parsed: boolean } | null {
  if (Array.isArray(input.bit_body)) {
    if (input.content_format === 'markdown') throw invalid('bit_body', 'a node array is Slate; pass content_format "slate" or send markdown text');
    return { nodes: input.bit_body, parsed: false };
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
      if (Array.isArray(parsed)) {
        // The text is not read again: an input of the caller's own lets it go (6.6 MB for an 8 MB body).
        if (ownInput) input.bit_body = '';
        return { nodes: parsed, parsed: true };
      }
    } catch {
      // not JSON: markdown that starts with a bracket, unless the caller said slate
    }
    if (input.content_format === 'slate') throw invalid('bit_body', 'with content_format "slate" the body is a Slate node array (or that array as a JSON string)');
  }
  return null;
}

export function convertBody(
  input: BodyInput,
  previous: SlateBody | BodyIndex | undefined,
  newId: () => string,
  /** The caller checks the size on the JSON it writes. */
  sizeCheckedByCaller = false,
  /** `input` is this call's own (the conversion worker's task): its JSON text is let go of once parsed. */
  ownInput = false,
): ConvertResult & { format: 'slate' | 'markdown' } {
  const slate = asSlateNodes(input, ownInput);
  if (slate !== null) {
    if (input.elements && input.elements.length > 0) {
      throw invalid('elements', 'elements are not accepted with content_format "slate": the Slate nodes carry their props and items');
    }
    return { body: slateToBody(slate.nodes, { previous, newId, sizeCheckedByCaller, release: slate.parsed }), minted: {}, format: 'slate' };
  }
  const result = markdownToBody(input.bit_body as string, { elements: input.elements, previous, newId, sizeCheckedByCaller });
  return { ...result, format: 'markdown' };
}

/**
 * A converted body as a write stores it, with what the write checks worked out beside it, so that the thread
 * that stores it never builds the body's nodes (for a large body this runs on a conversion thread, and the
 * event loop's thread gets only text and short lists: bench/memory.ts).
 */
export interface PreparedBody {
  /**
   * The stored body's JSON, new connection nodes given their ids: as text, or as its UTF-8 bytes when it
   * comes from the conversion thread (handed over without a copy; StoreDialect.writtenJson stores either).
   */
  json: string | Uint8Array;
  minted: Record<string, string>;
  format: 'slate' | 'markdown';
  /** Nodes of the previous body that this one leaves out (update_bit rule 2). */
  removed: string[];
  /** Reference ids the body cites that the previous body did not (only those are checked: see bits.service). */
  addedCitations: string[];
  /** Its connection nodes in body order; `fresh` names those new in it, given their ids here. */
  connections: Array<{ id: string; target_bit_id: string }>;
  fresh: string[];
}

/**
 * What a write needs of the stored body it replaces: its index (the nodes whose ids the new body keeps), its
 * inventory (update_bit rule 2) and the references it cites. The tree itself is not kept: on an 8 MB body it
 * is about 19 MB of heap for the whole conversion, where the index holds only the element, link, media and
 * connection nodes (bench/memory.ts).
 */
export interface PreviousBody {
  index: BodyIndex;
  inventory: Map<string, InventoryEntry>;
  citations: Set<string>;
}

export function summarisePrevious(previous: SlateBody): PreviousBody {
  return { index: indexBody(previous), inventory: nodeInventory(previous), citations: new Set(collectCitations(previous)) };
}

/** summarisePrevious of a stored body's JSON text: the tree lives only in this call. */
export function summarisePreviousJson(json: string): PreviousBody {
  return summarisePrevious(JSON.parse(json) as SlateBody);
}

/** `removeNodeIds`: what update_bit's markdown may leave out of `previous` (its remove_node_ids). */
export function prepareBody(
  input: BodyInput,
  previous: PreviousBody | undefined,
  newId: () => string,
  removeNodeIds?: string[],
  /** `input` is this call's own, as convertBody's `ownInput`. */
  ownInput = false,
): PreparedBody & { json: string } {
  const { body, minted, format } = convertBody(input, previous?.index, newId, true, ownInput);
  const fresh: string[] = [];
  const connections = collectConnections(body).map((node) => {
    if (node.id === null) {
      node.id = newId();
      fresh.push(node.id);
    }
    return { id: node.id, target_bit_id: node.target_bit_id };
  });
  // Written once, and checked as written (the converters leave the size check to this): the JSON is what
  // the store holds, connection ids included.
  const json = JSON.stringify(body);
  assertJsonSize(json);
  const addedCitations = collectCitations(body).filter((id) => !previous?.citations.has(id));
  const removed = previous ? lostNodes(previous.inventory, body, format === 'markdown' ? (removeNodeIds ?? []) : null) : [];
  return { json, minted, format, removed, addedCitations, connections, fresh };
}

/**
 * Nodes of the stored body that the new one leaves out (update_bit rule 2). With markdown, each must be
 * listed in remove_node_ids (by id, or by label for a node whose id is null), else BIT_CONTENT_LOSS; a
 * Slate body is the complete document, so what it omits is simply deleted (`allowed` null).
 */
export function lostNodes(previous: Map<string, InventoryEntry>, next: SlateBody, allowed: string[] | null): string[] {
  const after = nodeInventory(next);
  const lost = [...previous.values()].filter((n) => !after.has(n.id));
  if (allowed !== null) {
    const permitted = new Set(allowed);
    const refused = lost.filter((n) => !permitted.has(n.id) && !(n.label !== null && permitted.has(n.label)));
    if (refused.length > 0) {
      throw new WaymarkError(
        'BIT_CONTENT_LOSS',
        `The new body leaves out ${refused.length} node(s) of the stored one: write their anchors back as get_bit returned them, or list their ids in remove_node_ids to delete them.`,
        { removed_nodes: refused.map((n) => ({ id: n.id, type: n.type, label: n.label })) },
      );
    }
  }
  return lost.map((n) => n.id);
}
