import { z } from 'zod';
import { flowWithGraphShape } from '../../services/flows/shapes.js';
import { defineOperation } from '../operation.js';
import { flowId } from './flow-schemas.js';

export const getFlowTool = defineOperation({
  name: 'get_flow',
  title: 'Get a flow',
  description:
    'Reads a flow. include_graph adds graph.bits (reachable from the start bit, with depth and outgoing connections with their `when`) and graph.unreachable_bit_ids; format "mermaid" adds graph.mermaid.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  rest: { method: 'get', path: '/flows/:flow_id', operationId: 'getFlow' },
  input: z.strictObject({
    flow_id: flowId,
    include_graph: z.boolean().optional().describe('Adds graph.'),
    format: z.enum(['json', 'mermaid']).optional().describe('mermaid implies include_graph.'),
  }),
  output: flowWithGraphShape,
  run: ({ actor, services }, input) => services.flows.get(actor, input),
});
