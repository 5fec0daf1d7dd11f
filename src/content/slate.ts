/**
 * The stored form of a body: a Slate document whose node names follow Plate (`p`, `h1`, `ul`/`li`/`lic`,
 * `code_block`/`code_line`, `a`, `img`, …), plus our own void nodes: one per interactive element type
 * and `bit-connection`. The markdown parser produces it, the renderer reads it, services store it as JSON.
 *
 * Depth is unbounded in what a client may send, so every walker here is iterative (an explicit stack).
 */
import type { ConnectionCondition, ConnectionNode } from './constructs/bit-connection.js';
import type { CitationNode } from './constructs/citation.js';
import type { CodeBlockNode, CodeLineNode } from './constructs/code.js';
import type { CredentialNode } from './constructs/credential.js';
import type { ImageNode } from './constructs/image.js';
import type { LinkNode } from './constructs/link.js';
import type { ListItemNode, ListNode } from './constructs/list.js';
import type { TextBlock } from './constructs/paragraph.js';
import type { BlockquoteNode } from './constructs/quote.js';
import type { TableCellNode, TableNode, TableRowNode } from './constructs/table.js';
import type { HrNode } from './constructs/thematic-break.js';
import type { ElementType } from './elements/types.js';

// The node types with a construct are derived from its Slate shape (zod) in its module (./constructs/).
export type {
  BlockquoteNode,
  CitationNode,
  CodeBlockNode,
  CodeLineNode,
  ConnectionCondition,
  ConnectionNode,
  CredentialNode,
  HrNode,
  ImageNode,
  LinkNode,
  ListItemNode,
  ListNode,
  TableCellNode,
  TableNode,
  TableRowNode,
  TextBlock,
};

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

/** A connection's parameters as stored (its shape, ./constructs/bit-connection.ts, takes `true` too). */
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

export type InlineNode = TextLeaf | LinkNode | ImageNode | CitationNode | CredentialNode | InlineElementNode;

export type HeadingType = 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6';
export const HEADING_TYPES: readonly HeadingType[] = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

export type CellAlign = 'left' | 'center' | 'right' | null;

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
