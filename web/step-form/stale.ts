/**
 * A step the trail has left while a person had it open (issue 28, "Errors for people"): which refusals say so, and
 * the sentence that tells who moved the trail on and when, from the trail's history, with no ids or machine words.
 */
import type { StepError } from './payload.js';

/**
 * Whether a refusal means the step shown is no longer the trail's current one: save_step's and advance_step's
 * expected_step_id refusal names the step it is at now (details.current_step); a trail that ended refuses
 * everything (TRAIL_NOT_RUNNING); a host that cannot send expected_step_id (the MCP App's submit_step_data) hears
 * that the step holds none of the answered elements.
 */
export function isStaleRefusal(error: StepError): boolean {
  const details = error.details ?? {};
  return (error.code === 'VALIDATION_ERROR' && typeof details.current_step === 'object' && details.current_step !== null) || error.code === 'TRAIL_NOT_RUNNING' || error.code === 'ELEMENT_NOT_FOUND';
}

/** "just now", "1 minute ago", "3 hours ago", "2 days ago": how long ago an instant was. */
export function agoInWords(at: string, now: number): string {
  const minutes = Math.floor((now - Date.parse(at)) / 60_000);
  if (!(minutes >= 1)) return 'just now';
  const [n, unit] = minutes < 60 ? [minutes, 'minute'] : minutes < 60 * 24 ? [Math.floor(minutes / 60), 'hour'] : [Math.floor(minutes / (60 * 24)), 'day'];
  return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
}

/** What happened to the step the person had open, as the trail's history tells it. */
export interface MovedOn {
  /** The name of whoever left the step (or cancelled the trail); null when the history does not say. */
  by: string | null;
  at: string;
  /** Where the trail went: the title of its step now, or that it completed or was cancelled. */
  to: { step: string } | { ended: 'completed' | 'cancelled' };
}

/** "Bob Stone moved this trail on to “Sign the contract” 2 minutes ago." */
export function movedOnWords(moved: MovedOn, now: number): string {
  const who = moved.by ?? 'Someone';
  const when = agoInWords(moved.at, now);
  if ('step' in moved.to) return `${who} moved this trail on to “${moved.to.step}” ${when}.`;
  return `${who} ${moved.to.ended === 'completed' ? 'completed' : 'cancelled'} this trail ${when}.`;
}

/** When the history cannot be read: the same news without the who. */
export const MOVED_ON_UNKNOWN = 'Someone moved this trail on since you opened this step.';
