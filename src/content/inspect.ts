/** Read-only views of a stored body that services need: inventories, element lists, citations, text. */
import { ELEMENTS, isElementType } from './elements/index.js';
import type { CitationNode, ConnectionNode, ElementNode, ImageNode, LinkNode, SlateBody, SlateNode } from './slate.js';
import { HEADING_TYPES, isText, textOf, walk } from './slate.js';

export interface InventoryEntry {
  id: string;
  /** Slate type (`a`, `img`, `bit-connection`, an element type), or `<element type>-item` for an item. */
  type: string;
  label: string | null;
}

/**
 * Every element, item, link, media and connection node by id; a connection without an id is keyed by its
 * label (`→` when it has none). What update_bit compares to find BIT_CONTENT_LOSS.
 */
export function nodeInventory(body: SlateBody): Map<string, InventoryEntry> {
  const out = new Map<string, InventoryEntry>();
  walk(body.children, (node) => {
    const type = (node as { type?: string }).type;
    if (type === 'a') {
      const link = node as LinkNode;
      out.set(link.id, { id: link.id, type, label: textOf(link) });
    } else if (type === 'img') {
      const img = node as ImageNode;
      out.set(img.id, { id: img.id, type, label: img.alt });
    } else if (type === 'bit-connection') {
      const c = node as ConnectionNode;
      const key = c.id ?? c.label ?? '→';
      out.set(key, { id: key, type, label: c.label });
    } else if (isElementType(type)) {
      const element = node as ElementNode;
      out.set(element.id, { id: element.id, type, label: elementLabel(element) });
      const field = ELEMENTS[element.type].items?.textField;
      for (const item of element.items ?? []) {
        out.set(item.id, { id: item.id, type: `${type}-item`, label: field ? String(item[field] ?? '') : null });
      }
      return false;
    }
    return true;
  });
  return out;
}

function elementLabel(element: ElementNode): string | null {
  if (element.type === 'link-inline') return textOf(element);
  return typeof element.props.label === 'string' ? element.props.label : null;
}

export interface ListedElement {
  id: string;
  type: ElementNode['type'];
  step_type: string | null;
  props: Record<string, unknown>;
  items?: Array<Record<string, unknown> & { id: string }>;
  /** props.required, or for a check-list whether any item is required. */
  required: boolean;
}

/** Every interactive element in document order, as get_bit's `elements[]` and a step's elements show them. */
export function listElements(body: SlateBody): ListedElement[] {
  const out: ListedElement[] = [];
  walk(body.children, (node) => {
    const type = (node as { type?: string }).type;
    if (!isElementType(type)) return true;
    const e = node as ElementNode;
    const required = e.type === 'check-list' ? (e.items ?? []).some((i) => i.required === true) : e.props.required === true;
    out.push({
      id: e.id,
      type: e.type,
      step_type: ELEMENTS[e.type].stepType,
      props: { ...e.props },
      ...(ELEMENTS[e.type].items ? { items: (e.items ?? []).map((i) => ({ ...i })) } : {}),
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

const TEXT_BLOCKS = new Set<string>(['p', 'lic', 'code_line', 'th', 'td', ...HEADING_TYPES]);

/**
 * The prose of a body as plain text, for search and derived abstracts: text of paragraphs, headings,
 * lists, quotes, code and tables, link text and citation labels; one line per block. Elements,
 * connections and credentials are not prose.
 */
export function bodyText(body: SlateBody): string {
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
    const type = node.type;
    if (TEXT_BLOCKS.has(type)) flush();
    if (type === 'citation') current += (node as CitationNode).label;
    if (type === 'bit-connection' || type === 'credential' || (isElementType(type) && type !== 'link-inline')) return false;
    return true;
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
