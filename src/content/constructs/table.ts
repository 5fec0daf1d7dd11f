/**
 * Table (GFM): `table` of `tr` rows of `th` (first row) / `td` cells; a cell holds one `p` (Plate's shape),
 * because markdown cells are inline only. Column alignment is on the table, present only when some column is aligned.
 */
import type { Token } from 'markdown-it';
import { z } from 'zod';
import { buildInlines } from '../markdown/inline.js';
import { attr } from '../markdown/lines.js';
import type { CellAlign } from '../slate.js';
import { CHILDREN, oneChild, someChildren } from './input.js';
import type { TextBlock } from './paragraph.js';
import { CELL_TEXT } from './text-contexts.js';
import type { BlockTokenHandler, BlockWalk, Construct, NodeHandler, ShapeFields } from './types.js';

const ALIGN = "must be an array of 'left', 'center', 'right' or null";
/** `align`: each column's alignment, present only when some column is aligned. */
const tableShape = z.strictObject({
  type: z.literal('table'),
  align: z.array(z.enum(['left', 'center', 'right'], { error: ALIGN }).nullable(), { error: ALIGN }).optional(),
  children: someChildren('a table holds at least one row'),
});
const rowShape = z.strictObject({ type: z.literal('tr'), children: CHILDREN });
/** The first row holds `th` cells. A cell holds one `p` (Plate's shape), because markdown cells are inline only. */
const cellShape = z.strictObject({ type: z.enum(['th', 'td']), children: oneChild('a cell holds one p') });

export interface TableNode extends ShapeFields<typeof tableShape> {
  children: TableRowNode[];
}

export interface TableRowNode extends ShapeFields<typeof rowShape> {
  children: TableCellNode[];
}

export interface TableCellNode extends ShapeFields<typeof cellShape> {
  children: [TextBlock];
}

const DELIMITER_CELL: Readonly<Record<string, string>> = { left: ' :-- |', center: ' :-: |', right: ' --: |' };

const table: NodeHandler<TableNode, typeof tableShape> = {
  standsIn: ['block', 'li'],
  holds: 'table',
  shape: tableShape,
  input(fields, step) {
    const align = fields.align;
    const node: TableNode = { type: 'table', ...(align?.some((a) => a !== null) ? { align } : {}), children: [] };
    step.out.push(node);
    step.children(fields.children, node.children, step.depth + 1);
  },
  render: {
    block: {
      block(node, _task, w) {
        const rows = node.children;
        const columns = rows[0]?.children.length ?? 0;
        if (columns === 0) return;
        // Every row has the header's cells: markdown pads a short row and drops extra cells.
        for (let r = 0; r < rows.length; r++) {
          let line = '|';
          for (let c = 0; c < columns; c++) {
            const text = w.inlines(rows[r].children[c]?.children[0]?.children ?? [], CELL_TEXT);
            line += text === '' ? '  |' : ` ${text} |`;
          }
          w.line(line);
          if (r === 0) {
            let delimiter = '|';
            for (let c = 0; c < columns; c++) delimiter += DELIMITER_CELL[node.align?.[c] ?? ''] ?? ' --- |';
            w.line(delimiter);
          }
        }
      },
    },
  },
  text: 'descend',
};

const row: NodeHandler<TableRowNode, typeof rowShape> = {
  standsIn: ['table'],
  holds: 'row',
  shape: rowShape,
  input(fields, step) {
    const node: TableRowNode = { type: 'tr', children: [] };
    step.out.push(node);
    step.children(fields.children, node.children, step.depth);
  },
  render: 'parent',
  text: 'descend',
};

const cell: NodeHandler<TableCellNode, typeof cellShape> = {
  standsIn: ['row'],
  holds: 'cell',
  shape: cellShape,
  input(fields, step) {
    const node = { type: fields.type, children: [] } as unknown as TableCellNode;
    step.out.push(node);
    step.children(fields.children, node.children, step.depth);
  },
  render: 'parent',
  text: 'line',
};

/** What the walk keeps while inside a table: the table, its header's alignments, the line of the row read. */
interface TableState {
  node: TableNode;
  aligns: CellAlign[];
  rowLine: number;
}

function stateOf(walk: BlockWalk): TableState | undefined {
  return walk.state.table as TableState | undefined;
}

function lineOf(t: Token): number {
  return t.map ? t.map[0] + 1 : 1;
}

function alignOf(t: Token): CellAlign {
  const style = attr(t, 'style') ?? '';
  if (style.includes('left')) return 'left';
  if (style.includes('center')) return 'center';
  if (style.includes('right')) return 'right';
  return null;
}

const openCell: BlockTokenHandler = (walk, t, i) => {
  const inline = walk.ctx.inline(walk.tokens[i + 1]);
  const state = stateOf(walk);
  const node: TableCellNode = {
    type: t.type === 'th_open' ? 'th' : 'td',
    children: [{ type: 'p', children: buildInlines(walk.ctx, inline, 0, inline.length, state ? state.rowLine : 1) }],
  };
  if (t.type === 'th_open') state?.aligns.push(alignOf(t));
  walk.add(node);
  return i + 2;
};

// thead/tbody wrappers carry nothing Slate keeps.
const nothing: BlockTokenHandler = (_walk, _t, i) => i;

export const tables: Construct<'table' | 'tr' | 'th' | 'td'> = {
  name: 'table',
  nodes: { table: table as NodeHandler, tr: row as NodeHandler, th: cell as NodeHandler, td: cell as NodeHandler },
  blockTokens: {
    table_open(walk, _t, i) {
      const node: TableNode = { type: 'table', children: [] };
      walk.state.table = { node, aligns: [], rowLine: 1 } satisfies TableState;
      walk.open(node);
      return i;
    },
    table_close(walk, _t, i) {
      walk.close();
      const state = stateOf(walk);
      if (state && state.aligns.some((a) => a !== null)) state.node.align = state.aligns;
      walk.state.table = undefined;
      return i;
    },
    tr_open(walk, t, i) {
      const state = stateOf(walk);
      if (state) state.rowLine = lineOf(t);
      walk.open({ type: 'tr', children: [] });
      return i;
    },
    tr_close(walk, _t, i) {
      walk.close();
      return i;
    },
    th_open: openCell,
    td_open: openCell,
    thead_open: nothing,
    thead_close: nothing,
    tbody_open: nothing,
    tbody_close: nothing,
  },
  syntax: () => [],
};
