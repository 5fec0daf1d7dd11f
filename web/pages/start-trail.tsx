/** Start a trail of an active flow: its context asked by a form generated from the flow's schema. */
import { useState } from 'preact/hooks';
import * as api from '../api.js';
import { ContextFields, initialContext } from '../components/context-form.js';
import { Show, useLoad } from '../components/loaded.js';
import { navigate, type Params } from '../router.js';

/** TRAIL_CONTEXT_INVALID issues are `trail_context.<name>`: each lands on its field. */
export function contextErrors(error: api.ApiError): { byField: Record<string, string[]>; general: string | null } {
  const byField: Record<string, string[]> = {};
  const rest: string[] = [];
  for (const issue of (error.details?.issues ?? []) as Array<{ path: string; message: string }>) {
    const m = /^trail_context\.([^.]+)/.exec(issue.path);
    if (m) (byField[m[1]] ??= []).push(issue.message);
    else rest.push(`${issue.path}: ${issue.message}`);
  }
  return { byField, general: Object.keys(byField).length > 0 && rest.length === 0 ? null : rest.join('; ') || error.message };
}

function StartForm({ flow }: { flow: api.FlowView }) {
  const schema = flow.trail_context_schema ?? { type: 'object', properties: {} };
  const [values, setValues] = useState<Record<string, unknown>>(() => initialContext(schema));
  const [title, setTitle] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const context = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
      const trail = await api.startTrail(flow.flow_id, context, title.trim() || undefined);
      navigate(trail.current_step ? `/trails/${encodeURIComponent(trail.trail_id)}/step` : `/trails/${encodeURIComponent(trail.trail_id)}`);
    } catch (err) {
      if (!(err instanceof api.ApiError)) throw err;
      const r = contextErrors(err);
      setErrors(r.byField);
      setGeneral(r.general ?? `${Object.keys(r.byField).length} field${Object.keys(r.byField).length === 1 ? ' needs' : 's need'} attention.`);
      setTimeout(() => document.getElementById('start-errors')?.focus(), 0);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="start-title">
      <h1 id="start-title">Start a trail: {flow.flow_title}</h1>
      {flow.flow_description && <p>{flow.flow_description}</p>}
      {general && (
        <p id="start-errors" tabIndex={-1} role="alert" class="error-summary">
          {general}
        </p>
      )}
      <div class="field">
        <label for="trail-title">Name of this trail (optional)</label>
        <input id="trail-title" type="text" value={title} onInput={(e) => setTitle((e.currentTarget as HTMLInputElement).value)} />
      </div>
      <ContextFields schema={schema} values={values} errors={errors} onChange={(name, v) => setValues((all) => ({ ...all, [name]: v }))} />
      <button type="submit" class="primary" disabled={busy || !flow.is_active}>
        Start the trail
      </button>
      {!flow.is_active && <p class="notice">This flow is not active, so no trail can start on it.</p>}
    </form>
  );
}

export function StartTrailPage({ params }: { params: Params }) {
  const [loaded] = useLoad(() => api.flow(params.flow_id), [params.flow_id]);
  return <Show loaded={loaded} title="Start a trail">{(flow) => <StartForm flow={flow} />}</Show>;
}
