/** Where a trail stands: the flow's picture with the trail's path, and its history. */
import * as api from '../api.js';
import { FlowPicture } from '../components/flow-picture.js';
import { TrailComments } from '../components/step-comments.js';
import { Show, useLoad, when } from '../components/loaded.js';
import { href, type Params } from '../router.js';
import { TrailContext } from '../components/trail-context.js';
import { holder } from '../components/step-assignment.js';
import { contextLabels } from '../../src/services/trails/context-labels.js';
import { answerWords, relativeTime } from '../components/answer-words.js';
import { TRAIL_STATUS_WORDS } from '../../src/services/trails/status-words.js';

export function TrailPage({ params }: { params: Params }) {
  const trailId = params.trail_id;
  const [loaded] = useLoad(async () => {
    const trail = await api.trail(trailId);
    const [flow, people] = await Promise.all([api.flow(trail.flow_id).catch(() => null), api.trailPeople(trailId).catch((): api.TrailPeople => ({ people: [], elements: {} }))]);
    const names = new Map(people.people.map((p) => [p.principal_id, p.kind === 'agent' ? `${p.name} (agent)` : p.name]));
    // Who did something, by name where the server knows it (a principal of another account stays an id).
    const who = (id: string | null) => (id === null ? 'someone' : (names.get(id) ?? id));
    return { trail, flow, who, elements: people.elements };
  }, [trailId]);
  return (
    <Show loaded={loaded} title="Trail">
      {({ trail, flow, who, elements }) => {
        const path = trail.history.map((h) => h.bit_id);
        const current = trail.current_step?.bit_id ?? null;
        return (
          <>
            <h1>{trail.trail_title ?? 'Untitled trail'}</h1>
            <p>
              <span class={`badge status-${trail.status}`}>{TRAIL_STATUS_WORDS[trail.status]}</span> {flow && <a href={href(`/flows/${encodeURIComponent(flow.flow_id)}`)}>{flow.flow_title}</a>} · started by {who(trail.started_by)} {when(trail.started_date_time_utc)}
            </p>
            {trail.due_date_time_utc && (
              <p>
                Due {when(trail.due_date_time_utc)}
                {trail.overdue && (
                  <>
                    {' '}
                    <span class="badge overdue">Overdue</span>
                  </>
                )}
              </p>
            )}
            {trail.current_step && (
              <p>
                Current step: <a href={href(`/trails/${encodeURIComponent(trail.trail_id)}/step`)}>{trail.current_step.bit_title}</a>
                {trail.current_step.assignee ? ` · waiting for ${holder(trail.current_step.assignee)}` : ''}
                {trail.current_step.due_date_time_utc ? ` · due ${when(trail.current_step.due_date_time_utc)}` : ''}
                {trail.current_step.overdue && (
                  <>
                    {' '}
                    <span class="badge overdue">Overdue</span>
                  </>
                )}
              </p>
            )}
            <TrailContext context={trail.trail_context} labels={contextLabels(flow?.trail_context_schema ?? null, trail.trail_context)} />
            <section aria-labelledby="map-title">
              <h2 id="map-title">Where the trail is</h2>
              {flow?.graph && flow.graph.bits.length > 0 ? (
                <FlowPicture
                  bits={flow.graph.bits}
                  path={path}
                  current={current}
                  label={`The flow ${flow.flow_title}; the trail went through ${trail.history.map((h) => h.bit_title).join(', ')}${trail.current_step ? ` and is on ${trail.current_step.bit_title}` : ''}.`}
                />
              ) : (
                <p>The flow's picture is not available.</p>
              )}
              <p class="legend">
                <span class="swatch visited" aria-hidden="true" /> passed · <span class="swatch current" aria-hidden="true" /> current step
              </p>
            </section>
            <section aria-labelledby="history-title">
              <h2 id="history-title">History</h2>
              <ol class="history">
                {trail.history.map((h) => (
                  <li key={h.step_id}>
                    <h3>{h.bit_title}</h3>
                    <p class="muted">
                      Entered {when(h.entered_date_time_utc)}
                      {h.left_date_time_utc && ` · left ${when(h.left_date_time_utc)} by ${who(h.left_by)}`}
                    </p>
                    {h.answers.length > 0 && (
                      <ul class="answers">
                        {h.answers.map((a, i) => (
                          <li key={i}>
                            <strong>{who(a.answered_by)}</strong> {answerWords(a, elements[a.element_id])}{' '}
                            <time class="muted" dateTime={a.answered_date_time_utc} title={when(a.answered_date_time_utc)}>
                              {relativeTime(a.answered_date_time_utc)}
                            </time>
                          </li>
                        ))}
                      </ul>
                    )}
                    {h.transfers.map((t, i) => (
                      <p key={i} class="event transfer">
                        Handed to a person by {who(t.transferred_by)} ({when(t.transferred_date_time_utc)}): {t.reason}
                      </p>
                    ))}
                    {h.cancellation && (
                      <p class="event cancellation">
                        Trail cancelled by {who(h.cancellation.cancelled_by)} ({when(h.cancellation.cancelled_date_time_utc)}){h.cancellation.reason ? `: ${h.cancellation.reason}` : ''}
                      </p>
                    )}
                  </li>
                ))}
              </ol>
            </section>
            <TrailComments trail={trail} />
          </>
        );
      }}
    </Show>
  );
}
