/**
 * The construct registry: every body construct (one module each beside this file), and the lookups the
 * walkers dispatch through. Each Slate node type has its handler in a `Record` over the node types of
 * ../slate.ts, so a type without one is a compile error; interactive elements are handled by placement
 * (./element-line.ts, ./inline-element.ts), whatever their type.
 */
import type { MarkdownIt } from 'markdown-it';
import { ELEMENTS, isElementType } from '../elements/index.js';
import { resetParsers } from '../markdown/md.js';
import type { ElementNode, SlateNode, TextLeaf } from '../slate.js';
import { bitConnections } from './bit-connection.js';
import { citations } from './citation.js';
import { code } from './code.js';
import { credentials } from './credential.js';
import { elementLine, elementLineSyntax, elementShape } from './element-line.js';
import { headings } from './heading.js';
import { images } from './image.js';
import { inlineElement } from './inline-element.js';
import { links } from './link.js';
import { lists } from './list.js';
import { paragraph } from './paragraph.js';
import { quote } from './quote.js';
import { tables } from './table.js';
import { thematicBreak } from './thematic-break.js';
import type { BlockTokenHandler, Construct, InlineTokenHandler, NodeHandler, SyntaxEntry } from './types.js';

export type { Construct, NodeHandler, SyntaxEntry } from './types.js';

/** Every Slate node type with a `type`, besides the interactive elements. */
export type NodeType = Exclude<SlateNode, ElementNode | TextLeaf>['type'];

const NODES: Record<NodeType, NodeHandler> = {
  ...paragraph.nodes,
  ...headings.nodes,
  ...quote.nodes,
  ...lists.nodes,
  ...code.nodes,
  ...thematicBreak.nodes,
  ...tables.nodes,
  ...links.nodes,
  ...images.nodes,
  ...citations.nodes,
  ...credentials.nodes,
  ...bitConnections.nodes,
};

const elementLines: Construct<never> = { name: 'element line', nodes: {}, syntax: elementLineSyntax };

/** In the order describe_platform lists their syntax; prose (the paragraph) last. */
const constructs: Construct[] = [
  elementLines,
  links,
  images,
  citations,
  credentials,
  bitConnections,
  headings,
  quote,
  lists,
  code,
  thematicBreak,
  tables,
  paragraph,
] as Construct[];

const byType = new Map<string, NodeHandler>(Object.entries(NODES));
const blockTokens = new Map<string, BlockTokenHandler>();
const inlineTokens = new Map<string, InlineTokenHandler>();
for (const c of constructs) addTokens(c);

function addTokens(c: Construct): void {
  for (const [token, handler] of Object.entries(c.blockTokens ?? {})) {
    if (blockTokens.has(token)) throw new Error(`block token ${token} has two constructs`);
    blockTokens.set(token, handler);
  }
  for (const [token, handler] of Object.entries(c.inlineTokens ?? {})) {
    if (inlineTokens.has(token)) throw new Error(`inline token ${token} has two constructs`);
    inlineTokens.set(token, handler);
  }
}

/** The handler of a node type (an element type by its placement), or undefined for a type no construct owns. */
export function handlerOf(type: string): NodeHandler | undefined {
  const handler = byType.get(type);
  if (handler !== undefined || !isElementType(type)) return handler;
  const def = ELEMENTS[type];
  const element = { ...(def.placement === 'inline' ? inlineElement : elementLine), shape: elementShape(def) } as NodeHandler;
  // An element type keeps its placement and shape: the next lookup is one map read, as for every other type.
  byType.set(type, element);
  return element;
}

export function blockTokenHandler(type: string): BlockTokenHandler | undefined {
  return blockTokens.get(type);
}

export function inlineTokenHandler(type: string): InlineTokenHandler | undefined {
  return inlineTokens.get(type);
}

/** Adds the markdown-it rules of the constructs to a parser of the body dialect. */
export function applyConstructPlugins(md: MarkdownIt): void {
  for (const c of constructs) c.plugin?.(md);
}

/** Every node type a Slate input may hold but the interactive elements, with its handler (the built-in and registered ones). */
export function nodeHandlers(): Array<[string, NodeHandler]> {
  return [...byType].filter(([type]) => !isElementType(type));
}

/** describe_platform's body syntax: each construct's entries, in the registry's order. */
export function describeBodySyntax(): SyntaxEntry[] {
  return constructs.flatMap((c) => c.syntax());
}

/**
 * Adds a construct: its node types, tokens and rule join the built-in ones (before the paragraph's prose,
 * in describe_platform). A node type or token another construct owns is refused.
 */
export function registerConstruct(c: Construct): void {
  for (const type of Object.keys(c.nodes)) {
    if (byType.has(type) || isElementType(type)) throw new Error(`node type ${type} has a construct already`);
  }
  addTokens(c);
  for (const [type, handler] of Object.entries<NodeHandler>(c.nodes)) byType.set(type, handler);
  constructs.splice(constructs.length - 1, 0, c);
  // The parsers are made again on their next use, with its rule.
  resetParsers();
}
