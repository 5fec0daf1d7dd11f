/**
 * The built-in body constructs (one module each beside this file), as a list and as the registry built from it
 * (./registry.ts).
 */
import type { ElementNode, SlateNode, TextLeaf } from '../slate.js';
import { bitConnections } from './bit-connection.js';
import { citations } from './citation.js';
import { code } from './code.js';
import { credentials } from './credential.js';
import { elementLineSyntax } from './element-line.js';
import { headings } from './heading.js';
import { images } from './image.js';
import { links } from './link.js';
import { lists } from './list.js';
import { paragraph } from './paragraph.js';
import { quote } from './quote.js';
import { tables } from './table.js';
import { thematicBreak } from './thematic-break.js';
import { buildConstructRegistry } from './registry.js';
import type { Construct, NodeHandler, SyntaxEntry } from './types.js';

export { buildConstructRegistry, type ConstructRegistry } from './registry.js';
export type { Construct, NodeHandler, SyntaxEntry } from './types.js';

/** Every Slate node type with a `type`, besides the interactive elements. */
export type NodeType = Exclude<SlateNode, ElementNode | TextLeaf>['type'];

/**
 * Every Slate node type with its built-in handler (a type without one is a compile error here), in the order
 * describe_platform's Slate model lists them: prose first.
 */
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

/** The built-in constructs, in the order describe_platform lists their syntax; prose (the paragraph) last. */
export const BUILT_IN_CONSTRUCTS: readonly Construct[] = [
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

/** The registry of the built-in constructs: what every walker reads unless it is given another. */
export const CONSTRUCTS = buildConstructRegistry(BUILT_IN_CONSTRUCTS, Object.keys(NODES));

/** describe_platform's body syntax: the built-in constructs' entries, in the registry's order. */
export function describeBodySyntax(): SyntaxEntry[] {
  return CONSTRUCTS.describeBodySyntax();
}
