/** The flows this person can see: start a trail of an active one, or look at one. */
import * as api from '../api.js';
import { Show, useLoad } from '../components/loaded.js';
import { href } from '../router.js';
import { AddSampleFlow } from '../components/sample-flow.js';

const REVIEW: Record<api.FlowView['review_status'], string> = { pending: 'Review pending', approved: 'Approved', changes_requested: 'Changes requested' };

export function FlowsPage() {
  const [loaded] = useLoad(() => api.flows(), []);
  return (
    <Show loaded={loaded} title="Flows">
      {({ flows }) => (
        <>
          <h1>Flows</h1>
          {flows.length === 0 ? (
            <>
              <p class="empty">No flows yet.</p>
              <AddSampleFlow />
            </>
          ) : (
            <ul class="cards">
              {flows.map((f) => (
                <li key={f.flow_id} class="card-item">
                  <h2>
                    <a href={href(`/flows/${encodeURIComponent(f.flow_id)}`)}>{f.flow_title}</a>
                  </h2>
                  {f.flow_description && <p>{f.flow_description}</p>}
                  <p>
                    <span class="badge">{f.is_active ? 'Active' : 'Inactive'}</span> <span class="badge">{REVIEW[f.review_status]}</span>
                  </p>
                  {f.is_active && (
                    <a class="button" href={href(`/flows/${encodeURIComponent(f.flow_id)}/start`)} aria-label={`Start a trail of ${f.flow_title}`}>
                      Start a trail
                    </a>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Show>
  );
}

export { REVIEW };
