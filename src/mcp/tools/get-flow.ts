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
  description:
    'Reads a flow. include_graph adds graph.bits (reachable from the start bit, with depth and outgoing connections with their `when`) and graph.unreachable_bit_ids; format "mermaid" adds graph.mermaid.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  input: z.strictObject({
    flow_id: flowId,
    include_graph: z.boolean().optional().describe('Adds graph.'),
    format: z.enum(['json', 'mermaid']).optional().describe('mermaid implies include_graph.'),
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
