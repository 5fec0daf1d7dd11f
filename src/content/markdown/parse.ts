/**
 * markdown-it block tokens → Slate blocks, walked straight (no intermediate tree) with an explicit stack of
 * open containers, so nesting costs no recursion. Each token is handed to the construct that owns it
 * (../constructs/): the paragraph reads element and connection lines, the list its items, and so on.
 */
import type { Token } from 'markdown-it';
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
 *
 * A construct may read the top-level block after its own (an element line, the item list under it: issue
 * 24, finding 11), and a run may end between the two wherever the stream cuts. So a run's last top-level
 * block is not walked with it: it waits, and is walked at the head of the next run, or alone once the
 * stream ends. Every block is walked with its successor at hand, whatever the run size.
 */
export function parseBlocks(ctx: ParseContext): BlockNode[] {
  const walk = new Walk(ctx);
  let waiting: Token[] = [];
  ctx.blockTokens((run) => {
    const tokens = waiting.length === 0 ? run : waiting.concat(run);
    // A block that read its successor has walked it too: what waits starts after what was walked.
    const next = walkRun(walk, tokens, lastBlockStart(tokens));
    waiting = tokens.slice(next);
  });
  walkRun(walk, waiting, waiting.length);
  return walk.root.children as BlockNode[];
}

/** Where the last top-level block of `tokens` (whole top-level blocks) opens. */
function lastBlockStart(tokens: readonly Token[]): number {
  let i = tokens.length - 1;
  // A top-level block opens with a level-0 token that is not a close (a paragraph_open, a fence, an hr).
  while (i > 0 && (tokens[i].level !== 0 || tokens[i].nesting < 0)) i--;
  return Math.max(i, 0);
}

/**
 * Walks the blocks that open in tokens [0, end); the tokens after `end` are there to be read. Answers the
 * index after the last token walked (past `end` when a block took its successor with it).
 */
function walkRun(walk: Walk, tokens: Token[], end: number): number {
  const walked = walkedToken();
  walk.tokens = tokens;
  let released = 0;
  let i = 0;
  for (; i < end; i++) {
    // Nothing looks back more than one token (the open token of the current block).
    while (released < i - 1) tokens[released++] = walked;
    const t = tokens[i];
    // A token no construct owns carries nothing Slate keeps (html_block cannot occur: html is off).
    const handler = walk.ctx.constructs.blockTokenHandler(t.type);
    if (handler !== undefined) i = handler(walk, t, i);
  }
  walk.tokens = [];
  return i;
}
