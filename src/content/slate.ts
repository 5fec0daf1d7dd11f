/**
 * The stored form of a body: a Slate document whose node names follow Plate (`p`, `h1`, `ul`/`li`/`lic`,
 * `code_block`/`code_line`, `a`, `img`, …), plus our own void nodes: one per interactive element type
 * and `bit-connection`. The markdown parser produces it, the renderer reads it, services store it as JSON.
 *
 * Depth is unbounded in what a client may send, so every walker here is iterative (an explicit stack).
 */
import type { ElementType } from './elements/types.js';

/** A text leaf. A mark is present only when true (`false` is never stored). */
export interface TextLeaf {
  text: string;
  bold?: true;
  italic?: true;
  code?: true;
  strikethrough?: true;
}

export const MARKS = ['bold', 'italic', 'strikethrough', 'code'] as const;
export type Mark = (typeof MARKS)[number];

/** Slate requires a void node to hold exactly one empty text child; marks on it carry emphasis around the void. */
export type VoidChildren = [TextLeaf];

export interface LinkNode {
  type: 'a';
  id: string;
  url: string;
  title?: string;
  children: InlineNode[];
}

export interface ImageNode {
  type: 'img';
  id: string;
  url: string;
  alt: string;
  title?: string;
  children: VoidChildren;
}

export interface CitationNode {
  type: 'citation';
  reference_id: string;
  label: string;
  children: VoidChildren;
}

export interface CredentialNode {
  type: 'credential';
  handle: string;
  purpose: string;
  children: VoidChildren;
}

/** An item of a check-list, radio-button or dropdown element: its own id plus the type's item fields. */
export interface ElementItem {
  id: string;
  [field: string]: unknown;
}

/**
 * An interactive element. Block elements are voids; an inline element (its definition's placement) sits
 * inside a sentence and its children are the link's text (authoring-interface.md, "Body syntax").
 */
export interface ElementNode {
  type: ElementType;
  id: string;
  props: Record<string, unknown>;
  items?: ElementItem[];
  children: InlineNode[] | VoidChildren;
}

export interface InlineElementNode extends ElementNode {
  children: InlineNode[];
}

/** A condition on a connection (authoring-interface.md, Body syntax rule 4). */
export type ConnectionCondition =
  | { element_id: string; option_ids: string[] }
  | { element_id: string; checked: boolean };

export interface ConnectionParams {
  when?: ConnectionCondition;
  /** Present and false when the connection line hides that part of its preview card (`preview=0`, …). */
  preview?: false;
  description?: false;
  categories?: false;
  readingTime?: false;
}

/** Parameters of a connection line after `node=`, in the order the canonical form prints them. */
export const CONNECTION_FLAGS = ['preview', 'description', 'categories', 'readingTime'] as const;

export interface ConnectionNode {
  type: 'bit-connection';
  /** The connection_id; null for a line the caller just added (services assign it). */
  id: string | null;
  target_bit_id: string;
  /** null stands for the line label `→` */
  label: string | null;
  params: ConnectionParams;
  children: VoidChildren;
}

export type InlineNode = TextLeaf | LinkNode | ImageNode | CitationNode | CredentialNode | InlineElementNode;

export type HeadingType = 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6';
export const HEADING_TYPES: readonly HeadingType[] = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

/** A block whose children are inline content. `lic` is the content of a tight list item (Plate's name). */
export interface TextBlock {
  type: 'p' | 'lic' | HeadingType;
  children: InlineNode[];
}

export interface BlockquoteNode {
  type: 'blockquote';
  children: BlockNode[];
}

export interface ListNode {
  type: 'ul' | 'ol';
  /** First number of an ordered list, when it is not 1. */
  start?: number;
  children: ListItemNode[];
}

export interface ListItemNode {
  type: 'li';
  /** A task item (`- [ ]` / `- [x]`). */
  checked?: boolean;
  children: BlockNode[];
}

export interface CodeLineNode {
  type: 'code_line';
  children: [TextLeaf];
}

export interface CodeBlockNode {
  type: 'code_block';
  /** The fence's info string (language first). */
  lang?: string;
  children: CodeLineNode[];
}

export interface HrNode {
  type: 'hr';
  children: VoidChildren;
}

export type CellAlign = 'left' | 'center' | 'right' | null;

export interface TableNode {
  type: 'table';
  /** Column alignment, present only when some column is aligned. */
  align?: CellAlign[];
  children: TableRowNode[];
}

export interface TableRowNode {
  type: 'tr';
  children: TableCellNode[];
}

/** The first row holds `th` cells. A cell holds one `p` (Plate's shape), because markdown cells are inline only. */
export interface TableCellNode {
  type: 'th' | 'td';
  children: [TextBlock];
}

export type BlockNode =
  | TextBlock
  | BlockquoteNode
  | ListNode
  | CodeBlockNode
  | HrNode
  | TableNode
  | ElementNode
  | ConnectionNode;

export type SlateNode = BlockNode | InlineNode | ListItemNode | CodeLineNode | TableRowNode | TableCellNode;

/** What a bit stores: an object, so fields can be added later without a migration of the array. */
export interface SlateBody {
  children: BlockNode[];
}

export function isText(node: SlateNode): node is TextLeaf {
  return typeof (node as TextLeaf).text === 'string' && (node as { type?: unknown }).type === undefined;
}

/** Children of a node, or none for a text leaf. */
export function childrenOf(node: SlateNode): SlateNode[] {
  const children = (node as { children?: SlateNode[] }).children;
  return Array.isArray(children) ? children : [];
}

/**
 * Visits every node in document order (pre-order), iteratively. `visit` returning false skips the node's
 * children. `depth` is 1 for the body's top-level blocks.
 */
export function walk(
  nodes: readonly SlateNode[],
  visit: (node: SlateNode, depth: number, parent: SlateNode | null) => boolean | void,
): void {
  // Three parallel stacks rather than an object per node: bodies hold hundreds of thousands of nodes.
  const stack: SlateNode[] = [];
  const depths: number[] = [];
  const parents: Array<SlateNode | null> = [];
  for (let i = nodes.length - 1; i >= 0; i--) {
    stack.push(nodes[i]);
    depths.push(1);
    parents.push(null);
  }
  while (stack.length > 0) {
    const node = stack.pop()!;
    const depth = depths.pop()!;
    const parent = parents.pop()!;
    if (visit(node, depth, parent) === false) continue;
    const children = (node as { children?: SlateNode[] }).children;
    if (!Array.isArray(children)) continue;
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push(children[i]);
      depths.push(depth + 1);
      parents.push(node);
    }
  }
}

/** The plain text under a node (marks dropped, voids contribute nothing). */
export function textOf(node: SlateNode): string {
  let out = '';
  walk([node], (n) => {
    if (isText(n)) out += n.text;
  });
  return out;
}

export function emptyVoidChildren(): VoidChildren {
  return [{ text: '' }];
}
