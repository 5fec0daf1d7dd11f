/** A step of a trail: the step form, then what else this person may do (hand it over, cancel the trail). */
import { useState } from 'preact/hooks';
import * as api from '../api.js';
import { Show, useLoad } from '../components/loaded.js';
import { href, navigate, type Params } from '../router.js';
import { StepForm } from '../step-form/StepForm.js';
import type { StepActions } from '../step-form/payload.js';

function ReasonAction(props: { id: string; title: string; button: string; required: boolean; help: string; run(reason: string): Promise<void> }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (props.required && reason.trim() === '') {
      setError('Give a reason.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await props.run(reason.trim());
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <details class="side-action">
      <summary>{props.title}</summary>
      <form onSubmit={submit} noValidate>
        <label for={props.id}>
          Reason{props.required ? '' : ' (optional)'}
          {props.required && (
            <span class="req" aria-hidden="true">
              {' '}*
            </span>
          )}
        </label>
        <textarea id={props.id} rows={3} value={reason} aria-required={props.required ? 'true' : undefined} aria-describedby={`${props.id}-help`} aria-invalid={error ? true : undefined} onInput={(e) => setReason((e.currentTarget as HTMLTextAreaElement).value)} />
        <p id={`${props.id}-help`} class="rules">
          {props.help}
        </p>
        {error && (
          <p class="field-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {props.button}
        </button>
      </form>
    </details>
  );
}

export function StepPage({ params }: { params: Params }) {
  const trailId = params.trail_id;
  const [loaded, reload] = useLoad(() => api.step(trailId), [trailId]);
  const [notice, setNotice] = useState<string | null>(null);

  const actions: StepActions = {
    async save(answers) {
      await api.submitAnswers(trailId, answers);
      return api.step(trailId);
    },
    async advance(connectionId) {
      const after = await api.advance(trailId, connectionId);
      if (after.current_step) {
        setNotice(`Moved on to “${after.current_step.bit_title}”.`);
        reload();
      } else navigate(`/trails/${encodeURIComponent(trailId)}`);
    },
  };

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
          <StepForm payload={payload} actions={actions} />
          {payload.step && (payload.may.transfer || payload.may.cancel) && (
            <section class="more-actions" aria-labelledby="more-title">
              <h2 id="more-title">Other actions</h2>
              {payload.may.transfer && (
                <ReasonAction
                  id="transfer-reason"
                  title="Hand this step to a person"
                  button="Hand over"
                  required
                  help="The person who takes over reads it. At most 1024 characters."
                  run={async (reason) => {
                    await api.transfer(trailId, reason);
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
