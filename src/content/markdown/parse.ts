/**
 * markdown-it block tokens → Slate blocks, walked straight (no intermediate tree) with an explicit stack of
 * open containers, so nesting costs no recursion. Each token is handed to the construct that owns it
 * (../constructs/): the paragraph reads element and connection lines, the list its items, and so on.
 */
import type { Token } from 'markdown-it';
import { blockTokenHandler } from '../constructs/index.js';
import type { BlockWalk, OpenContainer } from '../constructs/types.js';
import type { BlockNode, SlateNode } from '../slate.js';
import type { ParseContext } from './context.js';
import { walkedToken } from './md.js';

class Walk implements BlockWalk {
  readonly root: OpenContainer = { type: 'root', children: [] };
  private readonly stack: OpenContainer[] = [this.root];
  state: Record<string, unknown> = {};

  /** The run of block tokens being walked (whole top-level blocks: ParseContext.blockTokens). */
  tokens: Token[] = [];

  constructor(readonly ctx: ParseContext) {}

  top(): OpenContainer {
    return this.stack[this.stack.length - 1];
  }

  add(node: SlateNode): void {
    this.stack[this.stack.length - 1].children.push(node);
  }

  open(node: OpenContainer): void {
    this.stack[this.stack.length - 1].children.push(node as SlateNode);
    this.stack.push(node);
  }

  close(): OpenContainer {
    return this.stack.pop()!;
  }
}

/**
 * Walks the body's block tokens into Slate blocks, a run of whole top-level blocks at a time as markdown-it
 * makes them (ParseContext.blockTokens), so the whole token stream and the whole tree are never alive
 * together (bench/memory.ts). Within a run, tokens already walked are let go too (replaced in the array by
 * one placeholder): a run can be one long list.
 */
export function parseBlocks(ctx: ParseContext): BlockNode[] {
  const walk = new Walk(ctx);
  const walked = walkedToken();
  ctx.blockTokens((tokens) => {
    walk.tokens = tokens;
    const n = tokens.length;
    let released = 0;
    for (let i = 0; i < n; i++) {
      // Nothing looks back more than one token (the open token of the current block).
      while (released < i - 1) tokens[released++] = walked;
      const t = tokens[i];
      // A token no construct owns carries nothing Slate keeps (html_block cannot occur: html is off).
      const handler = blockTokenHandler(t.type);
      if (handler !== undefined) i = handler(walk, t, i);
    }
    walk.tokens = [];
  });
  return walk.root.children as BlockNode[];
}
