/**
 * "Add the sample flow" (issue 28): a new account's first screen need not be empty. The sample is imported with
 * import_folder (get_sample_flow answers its files); an Admin's copy is approved and switched on so a trail can start
 * at once; anyone else's waits for an Admin's review, and the page says so.
 */
import { useState } from 'preact/hooks';
import * as api from '../api.js';
import { may, useMe } from '../me.js';
import { navigate } from '../router.js';

export function AddSampleFlow({ onAdded }: { onAdded?: () => void }) {
  const me = useMe();
  const [state, setState] = useState<{ busy: boolean; message: string | null }>({ busy: false, message: null });
  if (!may(me, 'author', 'edit')) return null;
  const add = async () => {
    setState({ busy: true, message: 'Adding the sample flow…' });
    try {
      let sample = await api.sampleFlow();
      if (!sample.flow_id) {
        await api.importFolder(sample.files, me?.scope_id ?? null);
        sample = await api.sampleFlow();
      }
      const flowId = sample.flow_id;
      if (!flowId) throw new Error('The sample flow was added but cannot be found; reload the page.');
      if (me?.permission === 'admin') {
        const flow = await api.flow(flowId);
        if (flow.review_status !== 'approved') await api.reviewFlow(flowId, 'approved');
        if (!flow.is_active) await api.setFlowActive(flowId, true);
      }
      onAdded?.();
      navigate(`/flows/${encodeURIComponent(flowId)}`);
    } catch (error) {
      setState({ busy: false, message: `The sample flow could not be added: ${(error as Error).message}` });
    }
  };
  return (
    <div class="sample-flow">
      <p>New to Waymark? Add a sample flow to try: it welcomes a new colleague in four steps, asks every kind of question a step can ask, branches on an answer, and has a step only a person may do.</p>
      <button type="button" onClick={() => void add()} disabled={state.busy}>
        Add the sample flow
      </button>
      {me?.permission !== 'admin' && <p class="hint">An Admin approves it before trails can start on it.</p>}
      <p role="status" aria-live="polite">
        {state.message}
      </p>
    </div>
  );
}
