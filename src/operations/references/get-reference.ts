import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { referenceViewShape } from '../../services/references/shapes.js';
import { referenceId } from './reference-schemas.js';

export const getReferenceTool = defineOperation({
  name: 'get_reference',
  title: 'Get a reference',
  description:
    'Returns every field of a reference, reference_content as a Slate node array.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  rest: { method: 'get', path: '/references/:reference_id', operationId: 'getReference' },
  input: z.strictObject({ reference_id: referenceId }),
  output: referenceViewShape,
  run: ({ actor, services }, input) => services.references.get(actor, input.reference_id),
});
