/**
 * bodyToMarkdown: the canonical markdown of a body, as get_bit prints it (CONTRACT.md, "Body forms"): ids
 * in anchors, `(required)` marks, connection parameters in their order. Blocks are written with an explicit
 * stack; each open container (quote, list item) contributes a prefix to every line written inside it.
 * The output is a fixpoint: reading it and writing it again gives the same text.
 */
import { CONSTRUCTS, type ConstructRegistry } from '../constructs/index.js';
import type { BlockRender, BlockTask, BlockWriter, PreviousBlock, Prefix } from '../constructs/types.js';
import type { BlockNode, InlineNode, SlateBody, SlateNode } from '../slate.js';
import type { TextContext } from './escape.js';
import { renderInlines } from './render-inline.js';

/** A block to write (its construct's render found once), or the end of a container. */
interface BlockJob extends BlockTask {
  kind: 'block';
  node: SlateNode;
  render: BlockRender;
  blank: boolean;
}

type Task = BlockJob | { kind: 'pop' };

const POP: Task = { kind: 'pop' };

class Writer implements BlockWriter {
  out = '';
  /** What is left to write, last first. */
  readonly stack: Task[] = [];
  private readonly prefixes: Prefix[] = [];
  /** Prefixes from this index on have not written their first line yet. */
  private fresh = 0;
  /** The continuation prefix of every open container. */
  private rest = '';

  constructor(readonly constructs: ConstructRegistry) {}

  push(prefix: Prefix): void {
    this.prefixes.push(prefix);
  }

  pop(): void {
    this.prefixes.pop();
    if (this.fresh > this.prefixes.length) this.fresh = this.prefixes.length;
    this.rest = '';
    for (let i = 0; i < this.fresh; i++) this.rest += this.prefixes[i].rest;
  }

  inlines(nodes: readonly InlineNode[], ctx: TextContext, lineStart?: boolean): string {
    return renderInlines(this.constructs, nodes, ctx, lineStart);
  }

  open(prefix: Prefix, children: readonly BlockNode[], tight: boolean, taskMarker?: string, enclosing?: string): void {
    this.push(prefix);
    this.stack.push(POP);
    schedule(this, children, tight, taskMarker, enclosing);
  }

  sequence(nodes: readonly SlateNode[], markerOf: (i: number) => string, tight: boolean): void {
    for (let i = nodes.length - 1; i >= 0; i--) {
      const node = nodes[i];
      this.stack.push({ kind: 'block', node, render: blockRender(node, this.constructs), blank: i > 0 && !tight, marker: markerOf(i), taskMarker: undefined, tight });
    }
  }

  line(content: string): void {
    let prefix = this.rest;
    if (this.fresh < this.prefixes.length) {
      for (let i = this.fresh; i < this.prefixes.length; i++) {
        prefix += this.prefixes[i].first;
        this.rest += this.prefixes[i].rest;
      }
      this.fresh = this.prefixes.length;
    }
    // A blank line inside a container keeps only the container's marks (`>`), never trailing spaces.
    this.out += content === '' ? `${prefix.trimEnd()}\n` : `${prefix}${content}\n`;
  }
}

/** How a block is written: its construct's block render (a node no construct writes as a block is refused). */
function blockRender(node: SlateNode, constructs: ConstructRegistry): BlockRender {
  const render = constructs.handlerOf((node as { type: string }).type)?.render;
  if (render === undefined || typeof render === 'string' || !('block' in render)) {
    throw new Error(`a ${String((node as { type?: unknown }).type)} node cannot be written as a block`);
  }
  return render.block as BlockRender;
}

/** Pushes a container's children as tasks, in order; lists get their marker from the sibling before. */
function schedule(w: Writer, children: readonly BlockNode[], tight: boolean, taskMarker?: string, enclosing?: string): void {
  const tasks: Task[] = new Array(children.length);
  let before: BlockNode | undefined;
  let beforeMarker: string | undefined;
  let beforeRender: BlockRender | undefined;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    const render = blockRender(child, w.constructs);
    let marker: string | undefined;
    if (render.marker) {
      const previous: PreviousBlock = { type: before?.type, marker: beforeMarker, endsWithItems: before !== undefined && beforeRender?.endsWithItems?.(before) === true };
      marker = render.marker(child, previous, i === 0 ? enclosing : undefined);
    }
    tasks[i] = { kind: 'block', node: child, render, blank: i > 0 && !tight, marker, taskMarker: i === 0 ? taskMarker : undefined, tight };
    before = child;
    beforeMarker = marker;
    beforeRender = render;
  }
  for (let i = tasks.length - 1; i >= 0; i--) w.stack.push(tasks[i]);
}

/** `constructs`: the built-in ones unless a test brings its own registry. */
export function bodyToMarkdown(body: SlateBody, constructs: ConstructRegistry = CONSTRUCTS): string {
  const w = new Writer(constructs);
  const stack = w.stack;
  schedule(w, body.children, false);
  while (stack.length > 0) {
    const task = stack.pop()!;
    if (task.kind === 'pop') {
      w.pop();
      continue;
    }
    if (task.blank) w.line('');
    task.render.block(task.node, task, w);
  }
  return w.out;
}
