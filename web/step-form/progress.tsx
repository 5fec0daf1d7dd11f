/**
 * Where the trail stands, on the step (issue 28, "Progress on the step"): "Step 3 · 2 done · about 3 more", and the
 * steps as a list a person reads (done, this one, the likely way ahead), walked live from the answers as they stand
 * (way-ahead.ts, with the connection rule advance_trail follows).
 */
import { progressWords, wayAhead } from '../../src/services/trails/way-ahead.js';
import type { StepView } from './payload.js';

export function StepProgress({ step, answers, chosen }: { step: StepView; answers: ReadonlyMap<string, { value: unknown }>; chosen: string | undefined }) {
  const way = wayAhead({ bit_id: step.bit_id, connections: step.connections, answers }, chosen, step.ahead);
  const words = progressWords(step.seq, step.steps_done.length, way);
  return (
    <section class="progress" aria-labelledby="progress-title">
      <h2 id="progress-title" class="visually-hidden">
        Progress
      </h2>
      <p class="progress-line">{words}</p>
      <ol class="progress-steps" aria-label="Steps of this trail">
        {step.steps_done.map((s) => (
          <li key={s.step_id} class="done">
            <span class="visually-hidden">Done: </span>
            {s.bit_title}
          </li>
        ))}
        <li class="current" aria-current="step">
          <span class="visually-hidden">This step: </span>
          {step.bit_title}
        </li>
        {way.steps.map((s, i) => (
          <li key={`${s.bit_id}-${i}`} class="ahead">
            <span class="visually-hidden">{way.certain ? 'Ahead: ' : 'Likely ahead: '}</span>
            {s.bit_title}
          </li>
        ))}
      </ol>
    </section>
  );
}
