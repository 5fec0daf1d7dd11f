/** Thematic break: `hr`, a void. */
import { z } from 'zod';
import { emptyVoidChildren, type VoidChildren } from '../slate.js';
import { VOID_CHILDREN, voidChildren } from './input.js';
import type { Construct, NodeHandler, ShapeFields } from './types.js';

const hrShape = z.strictObject({ type: z.literal('hr'), children: VOID_CHILDREN });

export interface HrNode extends ShapeFields<typeof hrShape> {
  children: VoidChildren;
}

const hr: NodeHandler<HrNode, typeof hrShape> = {
  standsIn: ['block', 'li'],
  shape: hrShape,
  input(fields, step) {
    step.out.push({ type: 'hr', children: voidChildren(fields.children, step.path) });
  },
  // `***`, not `---`: after a paragraph line `---` would underline it as a heading.
  render: { block: { block: (_node, _task, w) => w.line('***') } },
  text: 'descend',
};

export const thematicBreak: Construct<'hr'> = {
  name: 'thematic break',
  nodes: { hr: hr as NodeHandler },
  blockTokens: {
    hr(walk, _t, i) {
      walk.add({ type: 'hr', children: emptyVoidChildren() });
      return i;
    },
  },
  syntax: () => [],
};
