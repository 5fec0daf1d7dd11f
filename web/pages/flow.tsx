/**
 * A flow, read-only: its picture, review status and the bits it reaches; what changed since its approved version,
 * where an Admin approves the flow as it is now or asks for changes; and the flow's own history.
 */
import { useEffect, useState } from 'preact/hooks';
import * as api from '../api.js';
import { refusalInWords, withNamesOf, type Names } from '../components/change-words.js';
import { FlowChangesView } from '../components/diff-view.js';
import { FlowPicture } from '../components/flow-picture.js';
import { HistoryPanel } from '../components/history-panel.js';
import { Show, useLoad, when, type Loaded } from '../components/loaded.js';
import { may, useMe } from '../me.js';
import { href, type Params } from '../router.js';
import { REVIEW } from './flows.js';

type Message = { kind: 'ok' | 'error'; text: string };

function approverName(id: string | null, names: Names, me: api.Me | null): string {
  if (id !== null && id === me?.principal_id) return 'you';
  const known = id === null ? undefined : names.get(id);
  return known ? known.name : 'someone';
}

/** The flow's changes since its approved version, and the reviewer's two answers to them. */
function ChangedSinceApproval(props: { flow: api.FlowWithGraph; approval: NonNullable<api.FlowWithGraph['approval']>; approver: string; titles: ReadonlyMap<string, string>; onReviewed(message: Message): void }) {
  const me = useMe();
  const [diff, setDiff] = useState<Loaded<api.RevisionDiff>>({ state: 'loading' });
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.diffRevisions('flow', props.flow.flow_id).then(
      (d) => setDiff({ state: 'ok', data: d }),
      (e: unknown) => setDiff({ state: 'failed', message: refusalInWords(e) }),
    );
  }, [props.flow.flow_id, props.flow.last_modified_date_time_utc]);
  const review = async (status: 'approved' | 'changes_requested') => {
    setBusy(true);
    try {
      await api.reviewFlow(props.flow.flow_id, status);
      props.onReviewed({
        kind: 'ok',
        text: status === 'approved' ? 'Approved: the flow as it is now is its approved version.' : `Changes requested: the flow's review status is now “${REVIEW.changes_requested}”.`,
      });
    } catch (e) {
      props.onReviewed({ kind: 'error', text: `The review was not recorded. ${refusalInWords(e)}` });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="since-approval-title" class="since-approval">
      <h2 id="since-approval-title">Changed since approval</h2>
      <p>
        Version {props.approval.version} was approved by {props.approver} on {when(props.approval.approved_date_time_utc)}. Since then:
      </p>
      {diff.state === 'loading' && <p class="loading">Loading the changes…</p>}
      {diff.state === 'failed' && <p role="alert" class="error-summary">{diff.message}</p>}
      {diff.state === 'ok' && <FlowChangesView diff={diff.data} titles={props.titles} empty="Nothing differs from the approved version." />}
      {may(me, 'author', 'admin') ? (
        <div class="actions">
          <button type="button" class="primary" disabled={busy} onClick={() => void review('approved')}>
            Approve
          </button>
          <button type="button" disabled={busy} onClick={() => void review('changes_requested')}>
            Request changes
          </button>
        </div>
      ) : (
        <p class="muted">An Admin approves these changes or asks for others.</p>
      )}
    </section>
  );
}

export function FlowPage({ params }: { params: Params }) {
  const me = useMe();
  const [message, setMessage] = useState<Message | null>(null);
  const [loaded, reload] = useLoad(async () => {
    const flow = await api.flow(params.flow_id);
    const approvedBy = flow.approval?.approved_by ?? null;
    const names: Names = approvedBy ? await withNamesOf([{ principal_id: approvedBy }], new Map(), me) : new Map();
    return { flow, names };
  }, [params.flow_id]);
  return (
    <Show loaded={loaded} title="Flow">
      {({ flow, names }) => {
        const titles = new Map((flow.graph?.bits ?? []).map((b) => [b.bit_id, b.bit_title]));
        const approval = flow.approval ?? null;
        const approver = approverName(approval?.approved_by ?? null, names, me);
        return (
          <>
            <h1>{flow.flow_title}</h1>
            <p>
              <span class="badge">{flow.is_active ? 'Active' : 'Inactive'}</span> <span class="badge">{REVIEW[flow.review_status]}</span> <span class="badge">Priority {flow.priority}</span>
            </p>
            <div aria-live="polite">{message?.kind === 'ok' && <p class="notice review-result">{message.text}</p>}</div>
            {message?.kind === 'error' && (
              <p role="alert" class="error-summary review-result">
                {message.text}
              </p>
            )}
            {approval && !approval.changed_since && (
              <p class="approval">
                Version {approval.version} approved by {approver} on {when(approval.approved_date_time_utc)}; nothing changed since.
              </p>
            )}
            {flow.flow_description && <p>{flow.flow_description}</p>}
            {flow.is_active && (
              <p>
                <a class="button" href={href(`/flows/${encodeURIComponent(flow.flow_id)}/start`)}>
                  Start a trail
                </a>
              </p>
            )}
            {approval?.changed_since && (
              <ChangedSinceApproval
                flow={flow}
                approval={approval}
                approver={approver}
                titles={titles}
                onReviewed={(m) => {
                  setMessage(m);
                  if (m.kind === 'ok') reload();
                }}
              />
            )}
            {flow.graph && flow.graph.bits.length > 0 && (
              <section aria-labelledby="picture-title">
                <h2 id="picture-title">Picture</h2>
                <FlowPicture bits={flow.graph.bits} label={`The flow ${flow.flow_title}: ${flow.graph.bits.map((b) => b.bit_title).join(', ')}.`} />
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
            <HistoryPanel type="flow" id={flow.flow_id} noun="flow" titles={titles} changed={flow.last_modified_date_time_utc} onRestored={reload} />
          </>
        );
      }}
    </Show>
  );
}
