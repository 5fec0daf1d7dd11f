import { z } from 'zod';
import { RUN_ACCESS } from '../../services/actor.js';
import { LIMITS } from '../../content/limits.js';
import { defineTool } from '../tool.js';
import { recordId } from './common-schemas.js';
import { movedOf, trailId, trailMoved } from './trail-schemas.js';

export const advanceTrailTool = defineTool({
  name: 'advance_trail',
  title: 'Leave the current step',
  description: [
    'Leaves the current step once its required elements are answered (a required check-list item must be checked): follows connection_id if it is available now,',
    'else the only available connection; when several are available it refuses and lists them (details.available_connections); when none is, the trail completes.',
    'A connection is available when its condition holds for the answers given and its target bit is active. On a human_required step, or one handed to a person, only a person\'s token may advance.',
    'Answers trail_id, status and the step now current, whole (bit title, body as markdown with anchors, elements with config, references, the answers that count, required_missing, connections_available with target titles), or null once the trail completed; get_trail has the history.',
    `Pass expected_step_id (current_step.step_id) so that a retry cannot leave a second step. A trail enters at most ${LIMITS.stepsPerTrail} steps.`,
    'Errors: TRAIL_NOT_FOUND, TRAIL_NOT_RUNNING, HUMAN_REQUIRED (use transfer_step), REQUIRED_ANSWERS_MISSING (details.element_ids), VALIDATION_ERROR (connection_id not available, a choice needed, expected_step_id not the current step (details.current_step), or the step limit reached).',
  ].join(' '),
  flags: { W: true, D: false, I: false },
  access: RUN_ACCESS,
  input: z.strictObject({
    trail_id: trailId,
    connection_id: recordId('The connection to follow, from current_step.connections_available.').optional(),
    expected_step_id: recordId(
      'Extension: the current_step.step_id you mean to leave. If the trail is no longer there (a retried or doubled call), nothing is advanced: VALIDATION_ERROR with details.current_step.',
    ).optional(),
  }),
  output: trailMoved,
  run: async ({ actor, services }, input) => movedOf(await services.trails.advance(actor, input)),
});
