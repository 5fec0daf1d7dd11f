/** The trail fields as tool inputs, and the trail payload as tool output (trails/shapes.ts holds its shapes). */
import { z } from 'zod';
import { recordId } from '../common-schemas.js';
import { LIMITS } from '../../limits/index.js';
import type { TrailMoved, TrailProgress, TrailView } from '../../services/trails/shapes.js';
import type { TrailCore } from '../../services/trails/view.js';

export { TRAIL_STATUSES } from '../../store/enums.js';

export const trailId = recordId();

/** A reason a person reads (transfer_step, cancel_trail): at most LIMITS.reasonLength characters, not blank. */
export const trailReason = z
  .string()
  .max(LIMITS.reasonLength)
  .refine((text) => text.trim() !== '', { message: 'must not be blank' });

export {
  trailViewShape as trailView,
  trailMovedShape as trailMoved,
  trailProgressShape as trailProgress,
  trailSubmittedShape as trailSubmitted,
  trailPageShape as trailPage,
} from '../../services/trails/shapes.js';

export function movedOf(view: TrailView): TrailMoved {
  return { trail_id: view.trail_id, status: view.status, last_modified_date_time_utc: view.last_modified_date_time_utc, current_step: view.current_step };
}

export function progressOf(view: TrailCore): TrailProgress {
  const s = view.current_step;
  return {
    trail_id: view.trail_id,
    status: view.status,
    last_modified_date_time_utc: view.last_modified_date_time_utc,
    current_step: s && {
      step_id: s.step_id,
      bit_id: s.bit_id,
      bit_title: s.bit_title,
      answers: s.answers,
      required_missing: s.required_missing,
      connections_available: s.connections_available,
      waiting_for_person: s.waiting_for_person,
      transfer_reason: s.transfer_reason,
    },
  };
}

/** What the writing tools say they answer (the output schema has the fields). */
export const PROGRESS_TEXT = 'Answers the step\'s progress (get_trail: the whole trail).';

export const STEP_PAYLOAD_TEXT =
  'Answers the trail: its current step (null once ended) and history.';
