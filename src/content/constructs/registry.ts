/**
 * A construct registry, built as a value from a list of constructs: the lookups the walkers dispatch through.
 * Each walker reads the registry it is given (ConvertOptions.constructs and the like; the built-in one,
 * constructs/index.ts, by default), so a registry of other constructs needs no change to a global.
 * Interactive elements are handled by placement (./element-line.ts, ./inline-element.ts), whatever their type.
 */
import type { MarkdownIt } from 'markdown-it';
import { ELEMENTS, isElementType } from '../elements/index.js';
import { elementLine, elementShape } from './element-line.js';
import { inlineElement } from './inline-element.js';
import type { BlockTokenHandler, Construct, InlineTokenHandler, NodeHandler, SyntaxEntry } from './types.js';

export interface ConstructRegistry {
  /** The handler of a node type (an element type by its placement), or undefined for a type no construct owns. */
  handlerOf(type: string): NodeHandler | undefined;
  blockTokenHandler(type: string): BlockTokenHandler | undefined;
  inlineTokenHandler(type: string): InlineTokenHandler | undefined;
  /** Adds the markdown-it rules of the constructs to a parser of the body dialect. */
  applyPlugins(md: MarkdownIt): void;
  /** Every node type a Slate input may hold but the interactive elements, with its handler. */
  nodeHandlers(): Array<[string, NodeHandler]>;
  /** describe_platform's body syntax: each construct's entries, in the list's order. */
  describeBodySyntax(): SyntaxEntry[];
}

/**
 * The registry of `constructs`, in the order describe_platform lists their syntax. Their node types are listed
 * (nodeHandlers, describe_platform's Slate model) in `nodeOrder` first, then in the constructs' order. A node
 * type or a token two constructs claim, or a node type that is an element type, is refused.
 */
export function buildConstructRegistry(constructs: readonly Construct[], nodeOrder: readonly string[] = []): ConstructRegistry {
  const byType = new Map<string, NodeHandler>();
  const blockTokens = new Map<string, BlockTokenHandler>();
  const inlineTokens = new Map<string, InlineTokenHandler>();
  for (const c of constructs) {
    for (const [type, handler] of Object.entries<NodeHandler>(c.nodes)) {
      if (byType.has(type) || isElementType(type)) throw new Error(`node type ${type} has a construct already`);
      byType.set(type, handler);
    }
    for (const [token, handler] of Object.entries(c.blockTokens ?? {})) {
      if (blockTokens.has(token)) throw new Error(`block token ${token} has two constructs`);
      blockTokens.set(token, handler);
    }
    for (const [token, handler] of Object.entries(c.inlineTokens ?? {})) {
      if (inlineTokens.has(token)) throw new Error(`inline token ${token} has two constructs`);
      inlineTokens.set(token, handler);
    }
  }
  const rank = (type: string) => (nodeOrder.includes(type) ? nodeOrder.indexOf(type) : nodeOrder.length);
  const constructTypes = [...byType].sort(([a], [b]) => rank(a) - rank(b));
  /** An element type's handler, by its placement and with its shape: made on first use, then one map read. */
  const elements = new Map<string, NodeHandler>();
  return {
    handlerOf(type) {
      const handler = byType.get(type) ?? elements.get(type);
      if (handler !== undefined || !isElementType(type)) return handler;
      const def = ELEMENTS[type];
      const element = { ...(def.placement === 'inline' ? inlineElement : elementLine), shape: elementShape(def) } as NodeHandler;
      elements.set(type, element);
      return element;
    },
    blockTokenHandler: (type) => blockTokens.get(type),
    inlineTokenHandler: (type) => inlineTokens.get(type),
    applyPlugins(md) {
      for (const c of constructs) c.plugin?.(md);
    },
    nodeHandlers: () => constructTypes,
    describeBodySyntax: () => constructs.flatMap((c) => c.syntax()),
  };
}
