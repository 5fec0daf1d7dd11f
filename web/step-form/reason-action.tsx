/**
 * An action that asks for a reason first (hand the step to a person, cancel the trail): a disclosure with a
 * labelled text box, shown under the step form by every host of it (the web app, the MCP App).
 */
import { useState } from 'preact/hooks';
import { LIMITS } from '../../src/limits/index.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';

/** An action that cannot be taken back asks once more (issue 28: cancelling with the reason empty cancelled at once). */
export interface Confirmation {
  title: string;
  text: string;
  button: string;
}

export function ReasonAction(props: { id: string; title: string; button: string; required: boolean; help: string; confirm?: Confirmation; run(reason: string): Promise<void> }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (props.required && reason.trim() === '') {
      setError('Give a reason.');
      return;
    }
    if (props.confirm) setAsking(true);
    else await act();
  };
  const act = async () => {
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
      {asking && props.confirm && (
        <ConfirmDialog
          id={`${props.id}-confirm`}
          title={props.confirm.title}
          confirm={props.confirm.button}
          busy={busy}
          onConfirm={() => {
            setAsking(false);
            void act();
          }}
          onCancel={() => setAsking(false)}
        >
          <p>{props.confirm.text}</p>
        </ConfirmDialog>
      )}
    </details>
  );
}

/** Hand the step to a person: one box for every host, `transfer` being the host's own call. */
export function TransferAction(props: { transfer(reason: string): Promise<unknown>; done(): void }) {
  return (
    <ReasonAction
      id="transfer-reason"
      title="Hand this step to a person"
      button="Hand over"
      required
      help={`The person who takes over reads it. At most ${LIMITS.reasonLength} characters.`}
      run={async (reason) => {
        await props.transfer(reason);
        props.done();
      }}
    />
  );
}
