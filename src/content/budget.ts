/**
 * What one conversion may build (issue 16: "check sizes and counts before building anything"). A body is at
 * most LIMITS.bodyBytes of stored JSON; the converters charge a lower bound of the JSON of each node they are
 * about to build to an OutputBudget, which answers BODY_TOO_LARGE as soon as the bound passes the limit, so a
 * body that amplifies (a heading per two bytes, a long link definition used a million times) stops early
 * instead of being built whole and measured at the end. Every charge is at most what the node really takes,
 * so a body that fits is never refused here (assertBodySize stays the exact check).
 */
import type { Token } from 'markdown-it';
import { WaymarkError } from '../errors.js';
import { LIMITS } from '../limits/index.js';

export function bodyTooLarge(reason: string, details: Record<string, unknown> = {}): WaymarkError {
  return new WaymarkError('BODY_TOO_LARGE', `bit_body ${reason}, over ${LIMITS.bodyBytes} bytes once converted; split the content over several bits`, {
    max_bytes: LIMITS.bodyBytes,
    ...details,
  });
}

export class OutputBudget {
  bytes = 0;
  nodes = 0;

  constructor(
    private readonly maxBytes: number = LIMITS.bodyBytes,
    private readonly maxNodes: number = LIMITS.bodyNodes,
  ) {}

  /** Charges `bytes` of stored JSON and `nodes` nodes; BODY_TOO_LARGE once either passes its limit. */
  spend(bytes: number, nodes = 0): void {
    this.bytes += bytes;
    this.nodes += nodes;
    if (this.bytes > this.maxBytes) throw bodyTooLarge('would be more than its limit', { at_least_bytes: this.bytes });
    if (this.nodes > this.maxNodes) throw bodyTooLarge(`would hold more than ${this.maxNodes} nodes`, { max_nodes: this.maxNodes });
  }
}

/** The least stored JSON of any top-level node, with its comma: `{"type":"p","children":[{"text":""}]},`. */
const LEAST_BLOCK_BYTES = 38;

/**
 * Refuses a Slate node array whose top-level nodes alone would pass the limit once stored, from its length
 * alone: 4 MB of `{"type":"hr"}` is 300,000 nodes and 11 MB stored, which was found only after the request,
 * its checks and the conversion thread had each built all of them.
 */
export function assertTopLevelFloor(count: number): void {
  if (count * LEAST_BLOCK_BYTES > LIMITS.bodyBytes) {
    throw bodyTooLarge(`has ${count} top-level nodes, each stored as ${LEAST_BLOCK_BYTES} bytes or more,`, { at_least_bytes: count * LEAST_BLOCK_BYTES });
  }
}

/**
 * The least stored JSON each markdown-it block token becomes (with the comma after it), without its inline
 * content: a paragraph or heading is `{"type":"p","children":[{"text":""}]}` at least, whose text the inline
 * builder charges; closing tokens, `inline` and table wrappers add nothing of their own.
 */
const BLOCK_TOKEN_BYTES: Readonly<Record<string, number>> = {
  paragraph_open: LEAST_BLOCK_BYTES,
  heading_open: LEAST_BLOCK_BYTES,
  blockquote_open: 36,
  bullet_list_open: 28,
  ordered_list_open: 28,
  // An item line under an element is stored as an item (`{"id":"<uuid>","name":""}` at least, with its
  // paragraph's 38), not as a li: the least of both.
  list_item_open: 12,
  hr: 39,
  table_open: 31,
  tr_open: 28,
  th_open: 63,
  td_open: 63,
  // `{"type":"code_block","children":[{"type":"code_line","children":[{"text":""}]}]}` plus the code itself.
  fence: 80,
  code_block: 80,
};

/** Charges the block tokens from `from` on; returns the index to continue from. */
export function chargeBlockTokens(budget: OutputBudget, tokens: readonly Token[], from: number): number {
  let bytes = 0;
  let nodes = 0;
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i];
    const least = BLOCK_TOKEN_BYTES[t.type];
    if (least === undefined) continue;
    bytes += least;
    nodes++;
    if (t.type === 'fence' || t.type === 'code_block') bytes += t.content.length;
  }
  budget.spend(bytes, nodes);
  return tokens.length;
}

/**
 * Charges the inline tokens from `from` on: their text, and the destination of a link or image (a url is
 * stored whole in each link that uses it, which is how one long link reference definition amplifies). An
 * anchor destination (`<nodeScheme>:…`) becomes an id the block's own charge covers; markup adds nothing.
 */
export function chargeInlineTokens(budget: OutputBudget, tokens: readonly Token[], from: number, anchorPrefix: string): number {
  let bytes = 0;
  let nodes = 0;
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i];
    switch (t.type) {
      case 'text':
      case 'text_special':
      case 'code_inline':
        bytes += t.content.length;
        break;
      case 'link_open':
      case 'image': {
        const url = String(t.attrs?.[0]?.[1] ?? '');
        if (!url.startsWith(anchorPrefix)) bytes += url.length;
        nodes++;
        break;
      }
      default:
        break;
    }
  }
  budget.spend(bytes, nodes);
  return tokens.length;
}

/**
 * A cheap estimate of how much JSON a parsed value (a Slate node array given as an array) is: its strings'
 * lengths plus a few bytes per value. Walks at most until the estimate passes `stop`, without recursion.
 */
export function jsonSizeAtLeast(value: unknown, stop: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= stop) {
    const v = stack.pop();
    if (typeof v === 'string') size += v.length + 2;
    else if (Array.isArray(v)) {
      // Each item is at least one character and a comma: a long array passes `stop` before any is looked at
      // (pushing 300,000 items to look at the first few took 25 ms).
      size += 2 + Math.max(0, v.length - 1);
      if (size + v.length > stop) {
        size += v.length;
        break;
      }
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object') {
      size += 2;
      for (const [k, item] of Object.entries(v)) {
        size += k.length + 3;
        stack.push(item);
      }
    } else size += 1;
  }
  return size;
}

/**
 * Whether JSON is longer than `chars`: a string is the text itself (stored JSON as the store gave it, markdown), a
 * parsed value is estimated by jsonSizeAtLeast, which stops walking once it has seen enough. The one measure of "a
 * large body, snapshot or answer" that decides what runs in turns or threads of its own.
 */
export function textLongerThan(value: unknown, chars: number): boolean {
  return (typeof value === 'string' ? value.length : jsonSizeAtLeast(value, chars)) > chars;
}
