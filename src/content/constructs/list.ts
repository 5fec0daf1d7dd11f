/**
 * Lists: `ul` / `ol` holding `li` items; an item holds blocks, `lic` for the text of a tight item. A task
 * item (`- [ ]` / `- [x]`) is an `li` with `checked`.
 */
import type { Token } from 'markdown-it';
import { z } from 'zod';
import { attr } from '../markdown/lines.js';
import type { BlockNode } from '../slate.js';
import { closeContainer } from './containers.js';
import { CHILDREN, someChildren } from './input.js';
import type { Construct, NodeHandler, OpenContainer, PreviousBlock, ShapeFields } from './types.js';

const START = 'must be an integer from 0 to 999999999';
const ITEMS = someChildren('a list holds at least one li');
/** An ordered list may start at another number than 1 (markdown holds at most 9 digits). */
const olShape = z.strictObject({
  type: z.literal('ol'),
  start: z.number({ error: START }).int({ error: START }).min(0, { error: START }).max(999_999_999, { error: START }).optional(),
  children: ITEMS,
});
const ulShape = z.strictObject({ type: z.literal('ul'), children: ITEMS });
const itemShape = z.strictObject({ type: z.literal('li'), checked: z.boolean({ error: 'must be a boolean' }).optional(), children: CHILDREN });

export interface ListNode extends Omit<ShapeFields<typeof olShape>, 'type'> {
  type: 'ul' | 'ol';
  children: ListItemNode[];
}

/** A list item; `checked` makes it a task item (`- [ ]` / `- [x]`). */
export interface ListItemNode extends ShapeFields<typeof itemShape> {
  children: BlockNode[];
}

/** GFM task item marker at the start of a list item's first paragraph (GFM spec, 5.3). */
const TASK_MARKER = /^\[([ xX])\][ \t]+/;

/** `- [ ] foo` / `- [x] foo`: the item is a task; the marker leaves the text. */
export function takeTaskMarker(li: OpenContainer, inline: Token[]): void {
  const first = inline[0];
  if (!first || first.type !== 'text') return;
  const m = TASK_MARKER.exec(first.content);
  if (!m) return;
  (li as ListItemNode).checked = m[1] !== ' ';
  first.content = first.content.slice(m[0].length);
}

/** A list is loose (blank lines between items) when an item holds a `p`; a tight item holds `lic`. */
export function isLoose(list: ListNode): boolean {
  return list.children.some((li) => li.children.some((c) => c.type === 'p'));
}

/** Tight or loose is a property of the whole list in markdown: one `p` makes every item's `lic` a `p`. */
export function normaliseList(list: ListNode): void {
  const loose = isLoose(list);
  for (const li of list.children) {
    if (loose) for (const c of li.children) if (c.type === 'lic') (c as { type: string }).type = 'p';
    const first = li.children[0];
    if (li.checked !== undefined && first?.type !== 'lic' && first?.type !== 'p') delete li.checked;
  }
}

/**
 * The marker of a list: two lists in a row with the same marker would read as one list, and a bullet
 * list right after an element's item lines would read as more items, so such a list takes the other marker.
 * A bullet list opening its parent item shares that item's line, where `- - -` would be a thematic break,
 * so it takes the other marker too.
 */
function listMarker(list: ListNode, previous: PreviousBlock, enclosing: string | undefined): string {
  if (list.type === 'ol') return previous.type === 'ol' && previous.marker === '.' ? ')' : '.';
  // `+`, not `*`: an item starting with a thematic break `***` would make `* ***` one thematic break.
  if (previous.type === 'ul' && previous.marker === '-') return '+';
  if (previous.endsWithItems) return '+';
  if (previous.type === undefined && enclosing === '-') return '+';
  return '-';
}

function list(shape: typeof olShape | typeof ulShape): NodeHandler<ListNode, typeof olShape | typeof ulShape> {
  return {
    standsIn: ['block', 'li'],
    holds: 'list',
    shape,
    input(fields, step) {
      const start = 'start' in fields ? fields.start : undefined;
      const node: ListNode = { type: fields.type, ...(start !== undefined && start !== 1 ? { start } : {}), children: [] };
      step.out.push(node);
      step.list(node);
      step.children(fields.children, node.children, step.depth + 1);
    },
    render: listRender,
    text: 'descend',
  };
}

const listRender: NodeHandler<ListNode>['render'] = {
  block: {
    block(node, task, w) {
      const tight = !isLoose(node);
      const start = node.type === 'ol' ? (node.start ?? 1) : 0;
      w.sequence(node.children, (i) => (node.type === 'ol' ? `${start + i}${task.marker ?? '.'}` : (task.marker ?? '-')), tight);
    },
    marker: listMarker,
  },
};

const item: NodeHandler<ListItemNode, typeof itemShape> = {
  standsIn: ['list'],
  holds: 'li',
  shape: itemShape,
  input(fields, step) {
    const node: ListItemNode = { type: 'li', ...(fields.checked !== undefined ? { checked: fields.checked } : {}), children: [] };
    step.out.push(node);
    step.children(fields.children, node.children, step.depth, { type: 'lic', children: [{ text: '' }] });
  },
  render: {
    block: {
      block(li, task, w) {
        const marker = task.marker ?? '-';
        const first = li.children[0];
        const isTask = li.checked !== undefined && (first?.type === 'lic' || first?.type === 'p');
        w.open({ first: `${marker} `, rest: ' '.repeat(marker.length + 1) }, li.children as BlockNode[], task.tight, isTask ? (li.checked ? '[x] ' : '[ ] ') : undefined, marker);
      },
    },
  },
  text: 'descend',
};

function openList(walk: Parameters<NonNullable<Construct['blockTokens']>[string]>[0], t: Token, i: number): number {
  const start = Number(attr(t, 'start') ?? '1');
  const node: ListNode = t.type === 'bullet_list_open' ? { type: 'ul', children: [] } : { type: 'ol', ...(start !== 1 ? { start } : {}), children: [] };
  walk.open(node);
  return i;
}

function close(walk: Parameters<NonNullable<Construct['blockTokens']>[string]>[0], _t: Token, i: number): number {
  closeContainer(walk);
  return i;
}

export const lists: Construct<'ul' | 'ol' | 'li'> = {
  name: 'list',
  nodes: { ul: list(ulShape) as NodeHandler, ol: list(olShape) as NodeHandler, li: item as NodeHandler },
  blockTokens: {
    bullet_list_open: openList,
    ordered_list_open: openList,
    list_item_open(walk, _t, i) {
      walk.open({ type: 'li', children: [] });
      return i;
    },
    bullet_list_close: close,
    ordered_list_close: close,
    list_item_close: close,
  },
  syntax: () => [],
};
