/**
 * The step form: one step payload in, a page out: the bit's body with its elements as controls, the rules
 * of each field, Save, and the choice of where to go next. Self-contained: it knows the payload and the two
 * actions its host gives it (save, advance), nothing of routes, sessions or this app.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ElementNode } from '../../src/content/slate.js';
import { SlateView } from './body.js';
import { ElementControl, LinkInline, type FormState } from './fields.js';
import { controlId } from './notes.js';
import { bodyOf, type StepActions, type StepError, type StepPayload, type StepView } from './payload.js';
import { answersToSend, checkField, errorsFromRefusal, fieldsOf, initialValues, savedValues, type FieldCheck } from './rules.js';
import { openConnections } from '../../src/services/trails/conditions.js';
import { isStaleRefusal, movedOnWords, MOVED_ON_UNKNOWN } from './stale.js';
import { StepProgress } from './progress.js';
import { TRAIL_STATUS_WORDS } from '../../src/services/trails/status-words.js';

export interface StepFormProps {
  payload: StepPayload;
  actions: StepActions;
  /** What the host shows between the step's title and progress and its form (who does it, the trail's context). */
  before?: ComponentChildren;
}

function isStepError(e: unknown): e is StepError {
  return typeof e === 'object' && e !== null && typeof (e as StepError).code === 'string';
}

export function StepForm({ payload, actions, before }: StepFormProps) {
  const step = payload.step;
  if (!step) {
    return (
      <div class="step-form">
        <h1 id="step-title">{payload.trail.trail_title ?? payload.trail.flow_title}</h1>
        <p>This trail is {TRAIL_STATUS_WORDS[payload.trail.status].toLowerCase()}: no step is waiting.</p>
        {before}
      </div>
    );
  }
  return <StepFields key={step.step_id} initial={step} may={payload.may} actions={actions} before={before} />;
}

function StepFields({ initial, may, actions, before }: { initial: StepView; may: StepPayload['may']; actions: StepActions; before?: ComponentChildren }) {
  const [step, setStep] = useState(initial);
  const canAnswer = may.answer;
  const [values, setValues] = useState(() => initialValues(initial));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const [choice, setChoice] = useState<string | undefined>(undefined);
  const [attempted, setAttempted] = useState(false);
  // The trail moved on under the form: what happened, in words, and nothing more is sent from this step.
  const [stale, setStale] = useState<string | null>(null);
  const staleLine = useRef<HTMLDivElement>(null);
  const summary = useRef<HTMLDivElement>(null);
  const statusLine = useRef<HTMLParagraphElement>(null);
  // The host may hand over a newer payload of the same step (after a transfer): start from it.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setStep(initial);
    setValues(initialValues(initial));
    setStale(null);
  }, [initial]);

  const fields = useMemo(() => fieldsOf(step), [step]);
  const byId = useMemo(() => new Map(fields.map((f) => [f.id, f])), [fields]);
  const elements = useMemo(() => new Map(step.elements.map((e) => [e.element_id, e])), [step]);
  const saved = savedValues(step);

  // A field's errors: what the server said about it, and once a save was tried, what the element's own
  // check says of the value as it stands; warnings: the check's now, else those kept with the saved answer.
  const checks: Record<string, FieldCheck> = {};
  for (const f of fields) {
    const local = checkField(f, values[f.id]);
    const errors = [...(fieldErrors[f.id] ?? []), ...(attempted ? local.errors : [])];
    checks[f.id] = { errors: [...new Set(errors)], warnings: local.warnings.length > 0 ? local.warnings : (saved.get(f.id)?.warnings ?? []) };
  }
  const pending = answersToSend(step, values);
  // The answers as a save would leave them, opened with the rule advance_trail follows (conditions.ts): the Next
  // block says what Continue will do before anything is saved.
  const asSaved = new Map<string, { value: unknown }>([...saved, ...pending.map((a) => [a.element_id, { value: a.value }] as const)]);
  const open = openConnections(step.connections, asSaved);
  const errorIds = fields.filter((f) => checks[f.id].errors.length > 0).map((f) => f.id);

  const form: FormState = {
    values,
    checks,
    disabled: busy || !canAnswer,
    fields: byId,
    set(id, value) {
      setValues((v) => ({ ...v, [id]: value }));
      // The server's word on a field goes once the field is changed; the element check goes on showing.
      setFieldErrors((e) => (e[id] !== undefined ? { ...e, [id]: [] } : e));
      setStatus('');
    },
  };

  /** A refusal because the trail left this step: say who moved it on (the host reads the history) and offer a reload. */
  const showStale = async () => {
    setFieldErrors({});
    setGeneral(null);
    setStale(MOVED_ON_UNKNOWN);
    setTimeout(() => staleLine.current?.focus(), 0);
    const moved = await actions.movedOn?.(step.step_id).catch(() => null);
    if (moved) setStale(movedOnWords(moved, Date.now()));
  };

  const showErrors = (byField: Record<string, string[]>, message: string | null) => {
    setFieldErrors(byField);
    setGeneral(message);
    setTimeout(() => summary.current?.focus(), 0);
  };

  /** Checks locally with the element rules, then sends; the new payload on success, null when refused. */
  const save = async (): Promise<StepView | null> => {
    setAttempted(true);
    const local: Record<string, string[]> = {};
    for (const a of pending) {
      const errors = checkField(byId.get(a.element_id)!, a.value).errors;
      if (errors.length > 0) local[a.element_id] = errors;
    }
    if (Object.keys(local).length > 0) {
      showErrors(local, null);
      return null;
    }
    if (pending.length === 0) return step;
    try {
      const next = (await actions.save(pending, step.step_id)).step;
      if (!next) return null;
      setStep(next);
      setValues(initialValues(next));
      setFieldErrors({});
      setGeneral(null);
      setAttempted(false);
      setStatus(`Saved ${pending.length} answer${pending.length === 1 ? '' : 's'}.`);
      // The Save button is disabled once nothing is unsaved, and a disabled button drops the focus to the page
      // (issue 28): it moves to the message the save produced, unless the person has moved on meanwhile.
      const acted = document.activeElement;
      setTimeout(() => {
        const now = document.activeElement;
        if (now === acted || now === document.body || now === null) statusLine.current?.focus();
      }, 0);
      return next;
    } catch (e) {
      if (!isStepError(e)) throw e;
      if (isStaleRefusal(e)) await showStale();
      else {
        const r = errorsFromRefusal(e);
        showErrors(r.byField, r.general);
      }
      return null;
    }
  };

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };

  const onSave = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      await save();
    });
  };

  const onContinue = () =>
    run(async () => {
      const now = await save();
      if (!now) return;
      if (now.required_missing.length > 0) {
        showErrors(Object.fromEntries(now.required_missing.map((id) => [id, ['Required: answer this before continuing']])), null);
        return;
      }
      const available = now.connections_available;
      const picked = available.length === 1 ? available[0].connection_id : available.find((c) => c.connection_id === choice)?.connection_id;
      if (available.length > 1 && !picked) {
        setGeneral('Choose where to go next.');
        setTimeout(() => document.getElementById('next-choice')?.focus(), 0);
        return;
      }
      try {
        await actions.advance(picked, now.step_id);
      } catch (err) {
        if (!isStepError(err)) throw err;
        if (isStaleRefusal(err)) return showStale();
        const r = errorsFromRefusal(err);
        showErrors(r.byField, r.general);
      }
    });

  const hooks = {
    element(node: ElementNode, placement: 'block' | 'inline') {
      const element = elements.get(node.id);
      if (!element) return null;
      if (placement === 'inline') {
        const field = byId.get(node.id);
        const text = (node.children as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
        return field ? <LinkInline field={field} form={form}>{text}</LinkInline> : text;
      }
      return <ElementControl element={element} form={form} />;
    },
    citationLabel(referenceId: string, fallback: string) {
      return step.references.find((r) => r.reference_id === referenceId)?.label ?? fallback;
    },
  };

  const chosen = open.length > 1 ? open.find((c) => c.connection_id === choice) : open[0];
  // The primary button says what it will do with the answers as they stand: "Continue to X", "Complete the trail".
  const action = open.length === 0 ? 'complete the trail' : chosen ? `continue to ${chosen.target_bit_title}` : 'continue';
  const primary = pending.length > 0 ? `Save and ${action}` : `${action.charAt(0).toUpperCase()}${action.slice(1)}`;
  const hasErrors = errorIds.length > 0 || general !== null;
  return (
    <>
      {/* The step's title and where the trail stands come first; the host's panels (who does it, the context) sit
          between them and the form, outside it: they hold forms of their own. */}
      <h1 id="step-title">{step.bit_title}</h1>
      <StepProgress step={step} answers={asSaved} chosen={chosen?.connection_id} />
      {step.bit_abstract && <p class="abstract">{step.bit_abstract}</p>}
      {before}
    <form class="step-form" noValidate onSubmit={onSave} aria-labelledby="step-title">
      {step.transfer_reason && (
        <p class="notice">
          <strong>Handed to a person:</strong> {step.transfer_reason}
        </p>
      )}
      {stale && (
        <div ref={staleLine} tabIndex={-1} class="stale" role="alert">
          <p>{stale}</p>
          <p>Reload the step to see where the trail is now.</p>
          {actions.reload && (
            <button type="button" onClick={() => actions.reload?.()}>
              Reload the step
            </button>
          )}
        </div>
      )}
      <div ref={summary} tabIndex={-1} class={hasErrors ? 'error-summary' : 'visually-hidden'} role={hasErrors ? 'alert' : undefined}>
        {general && <p>{general}</p>}
        {errorIds.length > 0 && (
          <>
            <p>
              {errorIds.length} answer{errorIds.length === 1 ? ' needs' : 's need'} attention:
            </p>
            <ul>
              {errorIds.map((id) => (
                <li key={id}>
                  <a href={`#${controlId(id)}`} onClick={(e) => (e.preventDefault(), document.getElementById(controlId(id))?.focus())}>
                    {byId.get(id)?.label}: {checks[id].errors[0]}
                  </a>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <SlateView body={bodyOf(step.body)} hooks={hooks} />
      {step.references.length > 0 && (
        <section class="references" aria-labelledby="refs-title">
          <h2 id="refs-title">References</h2>
          <ol>
            {step.references.map((r) => (
              <li key={r.reference_id} id={`ref-${r.reference_id}`} tabIndex={-1}>
                {r.label}
              </li>
            ))}
          </ol>
        </section>
      )}
      {canAnswer && fields.length > 0 && (
        <div class="actions">
          <button type="submit" disabled={busy || pending.length === 0 || stale !== null}>
            Save answers
          </button>
          <p class="status" role="status" tabIndex={-1} ref={statusLine}>
            {status || (pending.length > 0 ? `${pending.length} unsaved answer${pending.length === 1 ? '' : 's'}` : '')}
          </p>
        </div>
      )}
      {may.advance && (
        <section class="next" aria-labelledby="next-title">
          <h2 id="next-title">Next</h2>
          <div class="next-what" aria-live="polite">
            {open.length > 1 ? (
              <fieldset id="next-choice" tabIndex={-1}>
                <legend>Where next?</legend>
                {open.map((c) => (
                  <div class="option" key={c.connection_id}>
                    <input type="radio" name="next" id={`next-${c.connection_id}`} value={c.connection_id} checked={choice === c.connection_id} onChange={() => setChoice(c.connection_id)} />
                    <label for={`next-${c.connection_id}`}>
                      {c.target_bit_title}
                      {c.label && <span class="muted"> — {c.label}</span>}
                    </label>
                  </div>
                ))}
              </fieldset>
            ) : open.length === 1 ? (
              <p>
                Next step: <strong>{open[0]!.target_bit_title}</strong>
              </p>
            ) : (
              <p>{step.connections.length > 0 ? 'No way on is open with these answers: continuing completes the trail.' : 'This is the last step: continuing completes the trail.'}</p>
            )}
          </div>
          <button type="button" class="primary" disabled={busy || stale !== null} onClick={() => void onContinue()}>
            {primary}
          </button>
        </section>
      )}
    </form>
    </>
  );
}
