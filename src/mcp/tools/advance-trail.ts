import { z } from 'zod';
import { defineTool } from '../tool.js';
import { recordId } from './common-schemas.js';
import { STEP_PAYLOAD_TEXT, trailId, trailView } from './trail-schemas.js';

export const advanceTrailTool = defineTool({
  name: 'advance_trail',
  title: 'Leave the current step',
  description: [
    'Leaves the current step once its required elements are answered (a required check-list item must be checked): follows connection_id if it is available now,',
    'else the only available connection; when several are available it refuses and lists them (details.available_connections); when none is, the trail completes.',
    'A connection is available when its condition holds for the answers given and its target bit is active. On a human_required step, or one handed to a person, only a person\'s token may advance.',
    STEP_PAYLOAD_TEXT,
    'Errors: TRAIL_NOT_FOUND, TRAIL_NOT_RUNNING, HUMAN_REQUIRED (use transfer_step), REQUIRED_ANSWERS_MISSING (details.element_ids), VALIDATION_ERROR (connection_id not available, or a choice needed).',
  ].join(' '),
  flags: { W: true, D: false, I: false },
  access: { capability: 'run', permission: 'view' },
  input: z.strictObject({
    trail_id: trailId,
    connection_id: recordId('The connection to follow, from current_step.connections_available.').optional(),
  }),
  output: trailView,
  run: ({ actor, services }, input) => services.trails.advance(actor, input),
});
