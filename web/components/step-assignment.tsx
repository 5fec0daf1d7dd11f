/**
 * Who a step waits for and by when (issue 27), with what the person may do about it: claim a step offered to
 * their group (or one nobody is named for), give back one they hold, and, for an Admin, hand it to a person, a
 * group or nobody after confirming. A refusal (someone took it meanwhile) is shown in the server's words.
 */
import { useState } from 'preact/hooks';
import * as api from '../api.js';
import type { StepPayload } from '../step-form/payload.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { when } from './loaded.js';

type Assignee = NonNullable<NonNullable<StepPayload['step']>['assignee']>;

/** "Ann Lee", "the group Finance", "Ann Lee (from the group Finance)". */
export function holder(a: Assignee): string {
  if (a.name && a.group_name) return `${a.name} (from the group ${a.group_name})`;
  return a.name ?? `the group ${a.group_name ?? ''}`;
}

export function StepAssignment({ payload, trailId, changed }: { payload: StepPayload; trailId: string; changed(next: StepPayload, notice: string): void }) {
  const step = payload.step;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [kind, setKind] = useState<'person' | 'group' | 'nobody'>('person');
  const [name, setName] = useState('');
  const [confirming, setConfirming] = useState(false);
  if (!step) return null;
  const run = async (action: () => Promise<StepPayload>, notice: string) => {
    setBusy(true);
    setError(null);
    try {
      changed(await action(), notice);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  const target = kind === 'nobody' ? null : `${kind}:${name.trim()}`;
  const targetText = kind === 'nobody' ? 'nobody (anyone may take it)' : kind === 'person' ? `the person ${name.trim()}` : `the group ${name.trim()}`;
  return (
    <section class="assignment" aria-labelledby="assignment-title">
      <h2 id="assignment-title">Who does this step</h2>
      <p>
        {step.assignee ? <>Waiting for {holder(step.assignee)}.</> : <>Anyone who may run this trail can do it.</>}
        {step.due_date_time_utc && (
          <>
            {' '}
            Due {when(step.due_date_time_utc)}
            {step.overdue && (
              <>
                {' '}
                <span class="badge overdue">Overdue</span>
              </>
            )}
            .
          </>
        )}
      </p>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        {payload.may.claim && (
          <button type="button" disabled={busy} onClick={() => void run(() => api.claimStep(trailId), 'You have taken this step.')}>
            Claim this step
          </button>
        )}
        {payload.may.release && (
          <button type="button" disabled={busy} onClick={() => void run(() => api.releaseStep(trailId), 'You gave this step back.')}>
            Release it
          </button>
        )}
      </div>
      {payload.may.assign && (
        <details class="side-action">
          <summary>Reassign (Admin)</summary>
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              if (kind !== 'nobody' && name.trim() === '') {
                setError(kind === 'person' ? "Give the person's email." : "Give the group's name.");
                return;
              }
              setError(null);
              setConfirming(true);
            }}
          >
            <fieldset>
              <legend>Hand it to</legend>
              {(['person', 'group', 'nobody'] as const).map((k) => (
                <label key={k} class="inline">
                  <input type="radio" name="assign-kind" value={k} checked={kind === k} onChange={() => setKind(k)} /> {k === 'person' ? 'A person' : k === 'group' ? 'A group' : 'Nobody'}
                </label>
              ))}
            </fieldset>
            {kind !== 'nobody' && (
              <>
                <label for="assign-name">{kind === 'person' ? 'Email of the person' : 'Name of the group'}</label>
                <input id="assign-name" type={kind === 'person' ? 'email' : 'text'} value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
              </>
            )}
            <button type="submit" disabled={busy}>
              Reassign
            </button>
          </form>
        </details>
      )}
      {confirming && (
        <ConfirmDialog
          id="assign-confirm"
          title="Reassign this step?"
          confirm="Reassign"
          busy={busy}
          onConfirm={() => void run(() => api.assignStep(trailId, target), `Handed to ${targetText}.`)}
          onCancel={() => setConfirming(false)}
        >
          <p>
            “{step.bit_title}” will be handed to {targetText}
            {step.assignee ? `, no longer ${holder(step.assignee)}` : ''}. They are told.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
