/** A step of a trail: the step form, then what else this person may do (hand it over, cancel the trail). */
import { useState } from 'preact/hooks';
import * as api from '../api.js';
import { Show, useLoad } from '../components/loaded.js';
import { href, navigate, type Params } from '../router.js';
import { StepForm } from '../step-form/StepForm.js';
import { apiStepActions } from '../step-form/hosts.js';
import type { StepActions } from '../step-form/payload.js';
import { ReasonAction, TransferAction } from '../step-form/reason-action.js';
import { StepComments } from '../components/step-comments.js';
import { StepAssignment } from '../components/step-assignment.js';
import { TrailContext } from '../components/trail-context.js';

export function StepPage({ params }: { params: Params }) {
  const trailId = params.trail_id;
  const [loaded, reload, show] = useLoad(() => api.step(trailId), [trailId]);
  const [notice, setNotice] = useState<string | null>(null);

  const actions: StepActions = apiStepActions(trailId, {
    moved({ payload, currentStep }) {
      if (currentStep) {
        setNotice(`Moved on to “${currentStep.bit_title}”.`);
        // advance_step answered the new step's form: shown as it is, not read again.
        if (payload) show(payload);
        else reload();
      } else navigate(`/trails/${encodeURIComponent(trailId)}`);
    },
    // The trail moved on under the form (stale.ts): the step it is at now, read again.
    reload() {
      setNotice(null);
      reload();
    },
  });

  return (
    <Show loaded={loaded} title="Step">
      {(payload) => (
        <div class="step-page">
          <p class="crumbs">
            <a href={href(`/trails/${encodeURIComponent(trailId)}`)}>{payload.trail.trail_title ?? 'Trail'}</a> · {payload.trail.flow_title}
          </p>
          {notice && (
            <p class="notice" role="status">
              {notice}
            </p>
          )}
          <StepForm
            payload={payload}
            actions={actions}
            before={
              <>
                {payload.step?.human_required && (
                  <p class="person-only">
                    <span class="badge">Needs a person</span> A person must do this step: an agent may not answer it or move the trail on.
                  </p>
                )}
                {payload.step && (
                  <StepAssignment
                    payload={payload}
                    trailId={trailId}
                    changed={(next, text) => {
                      setNotice(text);
                      show(next);
                    }}
                  />
                )}
                <TrailContext context={payload.trail.trail_context} labels={payload.trail.context_labels} />
              </>
            }
          />
          {payload.step && payload.comments && <StepComments trailId={trailId} stepId={payload.step.step_id} initial={payload.comments} />}
          {payload.step && (payload.may.transfer || payload.may.cancel) && (
            <section class="more-actions" aria-labelledby="more-title">
              <h2 id="more-title">Other actions</h2>
              {payload.may.transfer && (
                <TransferAction
                  transfer={(reason) => api.transfer(trailId, reason)}
                  done={() => {
                    setNotice('Handed to a person.');
                    reload();
                  }}
                />
              )}
              {payload.may.cancel && (
                <ReasonAction
                  id="cancel-reason"
                  title="Cancel this trail"
                  button="Cancel the trail"
                  required={false}
                  help="Kept in the trail's history. A cancelled trail cannot be resumed."
                  confirm={{ title: 'Cancel this trail?', text: 'Everyone working on it stops here, and a cancelled trail cannot be resumed.', button: 'Yes, cancel the trail' }}
                  run={async (reason) => {
                    await api.cancel(trailId, reason || undefined);
                    navigate(`/trails/${encodeURIComponent(trailId)}`);
                  }}
                />
              )}
            </section>
          )}
        </div>
      )}
    </Show>
  );
}
