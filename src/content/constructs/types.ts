/**
 * The shape of a body construct (one module per construct beside this file): for each Slate node type it
 * owns, how a Slate input node is checked, how the node is written as markdown, and what it gives to the
 * body's text and inventory; for the markdown-it tokens it owns, how they become nodes; and its
 * describe_platform syntax entries. The walkers (markdown/parse.ts, markdown/inline.ts, markdown/render.ts,
 * markdown/render-inline.ts, slate-input.ts, inspect.ts) stay iterative and call these through the registry
 * (./index.ts); a construct never calls a walker, it is handed what it needs.
 */
import type { Token } from 'markdown-it';
import type { MarkdownIt } from 'markdown-it';
import type { z } from 'zod';
import type { OutputBudget } from '../budget.js';
import type { ParseContext } from '../markdown/context.js';
import type { TextContext } from '../markdown/escape.js';
import type { BlockNode, ConnectionNode, InlineNode, ListNode, SlateNode, TextLeaf } from '../slate.js';

/** Which children a place of a Slate input accepts. */
export type Place = 'block' | 'li' | 'list' | 'inline' | 'link' | 'code' | 'table' | 'row' | 'cell';

export type Obj = Record<string, unknown>;

// ---- Slate input -------------------------------------------------------------------------------------

/** What an input handler is handed for one node: where it is, and the walker's means to go on. */
export interface InputStep {
  path: string;
  depth: number;
  /** Where the checked node goes. */
  out: SlateNode[];
  budget: OutputBudget;
  /** A node id given (or a fresh one when absent): a UUID, once per body. */
  claimId(value: unknown, path: string): string;
  /**
   * Schedules a node's children (its `children` as given) into `into`, each checked as standing in the place
   * its handler `holds`; `emptyFill` is what an empty child list holds instead.
   */
  children(children: unknown, into: SlateNode[], depth: number, emptyFill?: SlateNode): void;
  /** A list, normalised (tight or loose) once all its items are read. */
  list(node: ListNode): void;
  /** A connection, checked against the connection rules once the whole body is read. */
  connection(node: ConnectionNode): void;
}

// ---- markdown output -----------------------------------------------------------------------------------

/** What each line written inside a container starts with: its first line, and the lines after. */
export interface Prefix {
  first: string;
  rest: string;
}

/** How the block walker reached a node. */
export interface BlockTask {
  /** The list marker chosen for a list (or a list item's own marker). */
  marker: string | undefined;
  /** `[ ] ` / `[x] ` before the first block of a task item. */
  taskMarker: string | undefined;
  /** Whether the enclosing list is tight (a list item's blocks are not separated by a blank line). */
  tight: boolean;
}

export interface BlockWriter {
  /** Writes one line, under the prefixes of every open container. */
  line(content: string): void;
  inlines(nodes: readonly InlineNode[], ctx: TextContext, lineStart?: boolean): string;
  /**
   * Writes `children` inside a container whose lines carry `prefix`: without blank lines between them when
   * `tight`, the first after `taskMarker`; `enclosing` is the marker of the list item they open.
   */
  open(prefix: Prefix, children: readonly BlockNode[], tight: boolean, taskMarker?: string, enclosing?: string): void;
  /** Writes `nodes` one after another, each with its own marker (list items). */
  sequence(nodes: readonly SlateNode[], markerOf: (i: number) => string, tight: boolean): void;
}

/** The sibling written before a block, as a list marker is chosen from it. */
export interface PreviousBlock {
  type: string | undefined;
  /** The marker it was written with, when it is a list. */
  marker: string | undefined;
  /** Whether its last lines are bullet items (an element's item lines). */
  endsWithItems: boolean;
}

export interface BlockRender<N = SlateNode> {
  block(node: N, task: BlockTask, w: BlockWriter): void;
  /** The marker of a list, chosen from the sibling written before it (render.ts, schedule). */
  marker?(node: N, previous: PreviousBlock, enclosing: string | undefined): string;
  /** Whether the node's last lines are bullet items, so a bullet list right after it would read as more of them. */
  endsWithItems?(node: N): boolean;
}

export interface InlineWriter {
  /** The markdown of a link's content in `ctx`, the marks written around the link (`mask`) taken out. */
  linkText(children: readonly InlineNode[], mask: number, ctx: TextContext): string;
}

export interface InlineRender<N = SlateNode> {
  /** A container's marks are those its text shares; a void carries the marks of its one empty text. */
  kind: 'container' | 'void';
  inline(node: N, mask: number, ctx: TextContext, w: InlineWriter): string;
}

// ---- text and inventory ----------------------------------------------------------------------------------

/** An inventory entry: a node with an id that update_bit must not lose silently. */
export interface InventoryEntry {
  id: string;
  /** Slate type (`a`, `img`, `bit-connection`, an element type), or `<element type>-item` for an item. */
  type: string;
  label: string | null;
}

/**
 * What a node gives the body's plain text (search, derived abstracts): `line` starts a line of its own
 * (its text follows), `descend` adds its children's text, `skip` adds nothing, or the text a void stands for.
 */
export type TextRule = 'line' | 'descend' | 'skip' | { text(node: SlateNode): string };

/** A stored node's fields as its shape gives them, but its children (the walker's) and its id (minted when absent). */
export type ShapeFields<S extends z.ZodType> = Omit<z.output<S>, 'children' | 'id'>;

// ---- the handler of one node type --------------------------------------------------------------------------

export interface NodeHandler<N = SlateNode, S extends z.ZodObject = z.ZodObject> {
  /** Where a node of this type may stand in a Slate input. */
  standsIn: readonly Place[];
  /**
   * Where its children stand (what they may be: the types that stand there, and text in an inline place);
   * absent on a void, whose children are the one empty text. The walker and describe_platform both read it.
   */
  holds?: Place;
  /**
   * Its Slate shape: the node's own fields as a Slate input gives them (strict: other fields are refused),
   * `children` the walker's (./input.ts). The stored node's type is derived from it (ShapeFields).
   */
  shape: S;
  /** Makes the stored node from an input node's checked fields (its type admitted here) and pushes it to `step.out`. */
  input(fields: z.output<S>, step: InputStep): void;
  /** How the node is written: as a block, inline, or by its parent (a table writes its rows). */
  render: { block: BlockRender<N> } | { inline: InlineRender<N> } | 'parent';
  text: TextRule;
  /** Adds the node's inventory entries; returns false when its children hold none (they are not visited). */
  inventory?(node: N, out: Map<string, InventoryEntry>): boolean;
}

// ---- markdown input ------------------------------------------------------------------------------------------

/** A container the block walker has open (a quote, a list, an item, a table, a row), or the body itself. */
export interface OpenContainer {
  type: string;
  children: SlateNode[];
}

/** What a block token handler is handed: the tokens, the walk's state, and the open containers. */
export interface BlockWalk {
  readonly ctx: ParseContext;
  /** Whole top-level blocks, and the one after the block being walked whenever the body has one (markdown/parse.ts). */
  readonly tokens: Token[];
  /** The innermost open container. */
  top(): OpenContainer;
  /** Adds a block to the innermost container. */
  add(node: SlateNode): void;
  /** Adds a container to the innermost one and makes it the innermost. */
  open(node: OpenContainer): void;
  /** Closes the innermost container and answers it. */
  close(): OpenContainer;
  /** State a construct keeps across its tokens (a table's column alignment), by construct. */
  state: Record<string, unknown>;
}

/** Handles the block token at `i`; answers the index of the last token it consumed. */
export type BlockTokenHandler = (walk: BlockWalk, t: Token, i: number) => number;

/** What an inline token handler is handed: the builder of the current run of inline content. */
export interface InlineBuild {
  readonly ctx: ParseContext;
  /** The source line the builder is at. */
  readonly line: number;
  /** The marks open here, as a leaf carrying them. */
  leaf(text: string): TextLeaf;
  /** Checks the prose read so far for imitations (before a node that is not text). */
  flushRaw(): void;
  pushNode(node: InlineNode): void;
  /** Makes a link the target of the text that follows, until its `link_close`. */
  openLink(node: InlineNode & { children: InlineNode[] }): void;
}

/** Handles the inline token at `k` (tokens [.., to) are the run); answers the index of the last token consumed. */
export type InlineTokenHandler = (b: InlineBuild, tokens: readonly Token[], k: number, to: number) => number;

// ---- describe_platform --------------------------------------------------------------------------------------

export interface SyntaxEntry {
  construct: string;
  form: string;
  notes?: string;
}

// ---- the construct ------------------------------------------------------------------------------------------

export interface Construct<T extends string = string> {
  name: string;
  /** The Slate node types it owns, each with its handler. */
  nodes: Record<T, NodeHandler>;
  /** The markdown-it block tokens it turns into nodes. */
  blockTokens?: Record<string, BlockTokenHandler>;
  /** The markdown-it inline tokens it turns into nodes. */
  inlineTokens?: Record<string, InlineTokenHandler>;
  /** A markdown-it rule it adds to the body dialect (its own token type). */
  plugin?: (md: MarkdownIt) => void;
  /** Its describe_platform entries, in the order they are listed. */
  syntax: () => SyntaxEntry[];
}
