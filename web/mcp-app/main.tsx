/**
 * The step form as an MCP App (issue 14): the chat client renders this page in a sandboxed frame beside a
 * trail tool's result, hands it that result (its `_meta` carries the step payload) and calls Waymark's
 * tools for it. The form is the web app's own (web/step-form); only the host adapter differs.
 */
import { App } from '@modelcontextprotocol/ext-apps';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import '../styles.css';
import { payloadOf, toolStepActions, type ToolResult } from '../step-form/hosts.js';
import type { StepError, StepPayload } from '../step-form/payload.js';
import { TransferAction } from '../step-form/reason-action.js';
import { TrailContext } from '../components/trail-context.js';
import { StepForm } from '../step-form/StepForm.js';
import { CommentList } from '../components/comment-list.js';

const app = new App({ name: 'Waymark step form', version: '1.0.0' }, {});
const root = document.getElementById('app')!;

const call = (name: string, args: Record<string, unknown>): Promise<ToolResult> => app.callServerTool({ name, arguments: args });

function StepApp({ initial }: { initial: StepPayload }) {
  const [payload, setPayload] = useState(initial);
  const [notice, setNotice] = useState<string | null>(null);
  // A later tool result (the model called get_trail again) replaces what is shown.
  useEffect(() => setPayload(initial), [initial]);
  const trailId = payload.trail.trail_id;
  const actions = toolStepActions(call, trailId, {
    moved({ payload: next, currentStep }) {
      if (next) setPayload(next);
      setNotice(currentStep ? `Moved on to “${currentStep.bit_title}”.` : 'The trail is complete.');
      // The model learns what the person did without a message in the conversation.
      void app.updateModelContext({ content: [{ type: 'text', text: `The person moved trail ${trailId} on; ${currentStep ? `the current step is “${currentStep.bit_title}”` : 'no step is waiting'}.` }] }).catch(() => undefined);
    },
    // Someone else moved the trail on under the form: the step it is at now, read with get_trail.
    reload() {
      void call('get_trail', { trail_id: trailId })
        .then((result) => {
          const next = payloadOf(result);
          if (next) setPayload(next);
        })
        .catch(() => undefined);
    },
  });
  return (
    <div class="step-page">
      <p class="crumbs">
        {payload.trail.trail_title ?? 'Trail'} · {payload.trail.flow_title}
      </p>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {payload.step?.waiting_for && <p class="waiting-for">{payload.step.waiting_for}</p>}
      <TrailContext context={payload.trail.trail_context} labels={payload.trail.context_labels} />
      <StepForm payload={payload} actions={actions} />
      {payload.comments && (
        <section class="step-comments" aria-labelledby="comments-title">
          <h2 id="comments-title">Comments ({payload.comments.total})</h2>
          <CommentList comments={payload.comments.latest} />
        </section>
      )}
      {payload.step && payload.may.transfer && (
        <section class="more-actions" aria-labelledby="more-title">
          <h2 id="more-title">Other actions</h2>
          <TransferAction
            transfer={async (reason) => {
              try {
                await actions.transfer(reason);
              } catch (e) {
                throw new Error((e as StepError).message ?? String(e));
              }
            }}
            done={() => setNotice('Handed to a person.')}
          />
        </section>
      )}
    </div>
  );
}

function show(result: ToolResult): void {
  // The boot text is not Preact's: render would keep it beside the form.
  root.querySelector('.boot')?.remove();
  let payload: StepPayload | null;
  try {
    payload = payloadOf(result);
  } catch (e) {
    render(<p class="error-summary" role="alert">{(e as StepError).message}</p>, root);
    return;
  }
  render(payload ? <StepApp initial={payload} /> : <p>This result has no step to show.</p>, root);
}

// A link leaves through the host (ui/open-link): the sandboxed frame may neither open a window nor be navigated
// away from the form. In-page jumps (#ref-…) stay; the link fields still record their click.
document.addEventListener('click', (event) => {
  const link = (event.target as Element | null)?.closest('a[href]') as HTMLAnchorElement | null;
  if (!link || link.getAttribute('href')?.startsWith('#')) return;
  event.preventDefault();
  void app.openLink({ url: link.href }).catch(() => undefined);
});

// Set before connecting: the host may send the result as soon as the app is initialised.
app.ontoolresult = show;
app.connect().catch((e: unknown) => {
  root.querySelector('.boot')?.remove();
  render(<p class="error-summary" role="alert">Could not reach the chat client: {String(e)}</p>, root);
});
