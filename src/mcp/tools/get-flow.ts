import { z } from 'zod';
import { flowWithGraphShape } from '../../services/flow-shapes.js';
import { defineTool } from '../tool.js';
import { flowId } from './flow-schemas.js';

export const getFlowTool = defineTool({
  name: 'get_flow',
  title: 'Get a flow',
  description: [
    'Reads a flow: every field. With include_graph: true it adds graph.bits, every bit reachable from the start bit (breadth-first, each once, with its depth),',
    'each with its outgoing connections in sort_order, their target, label, preview params and condition (the `when` of the connection: an option of a dropdown/radio-button',
    'or a check-list item\'s checked state; null = always available), and graph.unreachable_bit_ids: bits wired to the flow\'s graph (by a connection in either direction)',
    'that no path from the start bit reaches. format "mermaid" also returns graph.mermaid, the graph as a Mermaid flowchart (dotted arrows are conditional).',
    'Errors: FLOW_NOT_FOUND.',
  ].join(' '),
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  input: z.strictObject({
    flow_id: flowId,
    include_graph: z.boolean().optional().describe('Add the graph of bits reachable from the start bit.'),
    format: z.enum(['json', 'mermaid']).optional().describe('"mermaid" also returns the graph as a Mermaid flowchart (implies include_graph).'),
  }),
  output: flowWithGraphShape,
  run: ({ actor, services }, input) => services.flows.get(actor, input),
});
