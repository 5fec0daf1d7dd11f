import { z } from 'zod';
import { BIT_STATUSES } from '../../store/enums.js';
import { defineTool } from '../tool.js';
import { conditionSchema } from './answer-schemas.js';
import { flowId, flowView } from './flow-schemas.js';

const condition = conditionSchema;

const graphBit = z.object({
  bit_id: z.string(),
  bit_title: z.string(),
  status: z.enum(BIT_STATUSES),
  human_required: z.boolean(),
  depth: z.number().int().nullable(),
  connections: z.array(
    z.object({
      connection_id: z.string(),
      target_bit_id: z.string(),
      target_bit_title: z.string().nullable(),
      sort_order: z.number().int(),
      label: z.string().nullable(),
      params: z.record(z.string(), z.boolean()),
      condition: condition.nullable(),
    }),
  ),
});

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
  output: flowView.extend({
    graph: z
      .object({
        bits: z.array(graphBit),
        unreachable_bit_ids: z.array(z.string()),
        mermaid: z.string().optional(),
      })
      .optional(),
  }),
  run: ({ actor, services }, input) => services.flows.get(actor, input),
});
