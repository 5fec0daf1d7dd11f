/** Read-only views of a stored body that services need: inventories, element lists, citations, text. */
import { CONSTRUCTS, type ConstructRegistry } from './constructs/index.js';
import type { InventoryEntry } from './constructs/types.js';
import { ELEMENTS, isElementType } from './elements/index.js';
import type { CitationNode, ConnectionNode, ElementNode, SlateBody, SlateNode } from './slate.js';
import { isText, walk } from './slate.js';

export type { InventoryEntry };

/**
 * Every element, item, link, media and connection node by id; a connection without an id is keyed by its
 * label (`→` when it has none). What update_bit compares to find BIT_CONTENT_LOSS. Each construct adds its own.
 */
export function nodeInventory(body: SlateBody, constructs: ConstructRegistry = CONSTRUCTS): Map<string, InventoryEntry> {
  const out = new Map<string, InventoryEntry>();
  walk(body.children, (node) => {
    const type = (node as { type?: string }).type;
    if (type === undefined) return true;
    const handler = constructs.handlerOf(type);
    return handler?.inventory ? handler.inventory(node, out) : true;
  });
  return out;
}

export interface ListedElement {
  id: string;
  type: ElementNode['type'];
  step_type: string | null;
  props: Record<string, unknown>;
  items?: Array<Record<string, unknown> & { id: string }>;
  /** props.required, or for a type answered by its items whether any item is required. */
  required: boolean;
}

/** Every interactive element in document order, as get_bit's `elements[]` and a step's elements show them. */
export function listElements(body: SlateBody): ListedElement[] {
  const out: ListedElement[] = [];
  walk(body.children, (node) => {
    const type = (node as { type?: string }).type;
    if (!isElementType(type)) return true;
    const e = node as ElementNode;
    const def = ELEMENTS[e.type];
    const required = def.answered === 'items' ? (e.items ?? []).some((i) => i.required === true) : e.props.required === true;
    out.push({
      id: e.id,
      type: e.type,
      step_type: def.stepType,
      props: { ...e.props },
      ...(def.items ? { items: (e.items ?? []).map((i) => ({ ...i })) } : {}),
      required,
    });
    return false;
  });
  return out;
}

/** The reference ids cited in the body, each once, in order. */
export function collectCitations(body: SlateBody): string[] {
  const ids = new Set<string>();
  walk(body.children, (node) => {
    if ((node as { type?: string }).type === 'citation') ids.add((node as CitationNode).reference_id);
  });
  return [...ids];
}

export function collectConnections(body: SlateBody): ConnectionNode[] {
  const out: ConnectionNode[] = [];
  walk(body.children, (node) => {
    if ((node as { type?: string }).type === 'bit-connection') out.push(node as ConnectionNode);
  });
  return out;
}

/**
 * The prose of a body as plain text, for search and derived abstracts: one line per text block (paragraph,
 * heading, code line, cell), the text its constructs give (link text, citation labels); elements,
 * connections and credentials are not prose.
 */
export function bodyText(body: SlateBody | { children: readonly SlateNode[] }, constructs: ConstructRegistry = CONSTRUCTS): string {
  const lines: string[] = [];
  let current = '';
  const flush = () => {
    const line = current.trim();
    if (line !== '') lines.push(line);
    current = '';
  };
  walk(body.children, (node: SlateNode) => {
    if (isText(node)) {
      current += node.text;
      return;
    }
    const rule = constructs.handlerOf(node.type)?.text ?? 'skip';
    if (rule === 'descend') return true;
    if (rule === 'line') {
      flush();
      return true;
    }
    if (rule !== 'skip') current += rule.text(node);
    return false;
  });
  flush();
  return lines.join('\n');
}

/** Whether nodes (a stored body or raw Slate input) hold an interactive element (reference content refuses them). */
export function hasInteractiveElements(nodes: unknown): boolean {
  const stack: unknown[] = [nodes];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const c of v) stack.push(c);
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    const o = v as Record<string, unknown>;
    if (isElementType(o.type)) return true;
    if (Array.isArray(o.children)) stack.push(o.children);
  }
  return false;
}
