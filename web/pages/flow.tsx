/** A flow, read-only: its picture, review status and the bits it reaches. */
import * as api from '../api.js';
import { FlowPicture } from '../components/flow-picture.js';
import { Show, useLoad } from '../components/loaded.js';
import { href, type Params } from '../router.js';
import { REVIEW } from './flows.js';

export function FlowPage({ params }: { params: Params }) {
  const [loaded] = useLoad(() => api.flow(params.flow_id), [params.flow_id]);
  return (
    <Show loaded={loaded} title="Flow">
      {(flow) => (
        <>
          <h1>{flow.flow_title}</h1>
          <p>
            <span class="badge">{flow.is_active ? 'Active' : 'Inactive'}</span> <span class="badge">{REVIEW[flow.review_status]}</span> <span class="badge">Priority {flow.priority}</span>
          </p>
          {flow.flow_description && <p>{flow.flow_description}</p>}
          {flow.is_active && (
            <p>
              <a class="button" href={href(`/flows/${encodeURIComponent(flow.flow_id)}/start`)}>
                Start a trail
              </a>
            </p>
          )}
          {flow.graph?.mermaid && (
            <section aria-labelledby="picture-title">
              <h2 id="picture-title">Picture</h2>
              <FlowPicture mermaid={flow.graph.mermaid} bits={flow.graph.bits} unreachableIds={flow.graph.unreachable_bit_ids} label={`The flow ${flow.flow_title}: ${flow.graph.bits.map((b) => b.bit_title).join(', ')}.`} />
            </section>
          )}
          {flow.graph && (
            <section aria-labelledby="bits-title">
              <h2 id="bits-title">Bits</h2>
              <ol>
                {flow.graph.bits.map((b) => (
                  <li key={b.bit_id}>
                    <a href={href(`/bits/${encodeURIComponent(b.bit_id)}`)}>{b.bit_title}</a>
                    {b.human_required && <span class="badge">Needs a person</span>}
                    {b.status === 'archived' && <span class="badge">Archived</span>}
                  </li>
                ))}
              </ol>
            </section>
          )}
        </>
      )}
    </Show>
  );
}
