/** Thematic break: `hr`, a void. */
import type { HrNode } from '../slate.js';
import { emptyVoidChildren } from '../slate.js';
import { onlyKeys, voidChildren } from './input.js';
import type { Construct, NodeHandler } from './types.js';

const hr: NodeHandler<HrNode> = {
  standsIn: ['block', 'li'],
  input(value, step) {
    onlyKeys(value, ['type', 'children'], step.path);
    step.out.push({ type: 'hr', children: voidChildren(value, step.path) });
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
