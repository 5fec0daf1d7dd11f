/** A trail's status in a person's words: the CSV export and the web app say it the same way. Imports nothing, so the app's bundle takes only this. */
import type { TrailStatus } from '../../store/enums.js';

export const TRAIL_STATUS_WORDS: Record<TrailStatus, string> = {
  running: 'Running',
  waiting_for_person: 'Waiting for a person',
  completed: 'Completed',
  cancelled: 'Cancelled',
};
