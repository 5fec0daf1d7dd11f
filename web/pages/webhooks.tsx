/**
 * Webhooks (issue 29) for an Admin: each subscription with its health in words, a new one added (its signing secret
 * shown once, with how a receiver checks it), a test event, the delivery log a page at a time and an attempt made
 * again, the secret rotated, the subscription stopped, started again or removed. The event types are the server's
 * own list (src/services/webhooks/event-types.ts), so the form offers exactly what create_webhook accepts.
 */
import { CopyOnce } from '../components/copy-once.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import * as api from '../api.js';
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from '../../src/services/webhooks/event-types.js';
import { refusalInWords } from '../components/change-words.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { scopeInWords, useScopes } from '../components/scopes.js';
import { when } from '../components/loaded.js';
import { may, useMe } from '../me.js';

/** Deliveries shown at a time in a log. */
const LOG_PAGE = 10;
/** How often the list is read again while the page is in view: a receiver's health changes on its own. */
const REFRESH_MS = 5000;
/** What rotate_webhook_secret's overlap may be, in hours, as the dialog offers it. */
const OVERLAPS: Array<{ hours: number; label: string }> = [
  { hours: 24, label: '24 hours' },
  { hours: 1, label: '1 hour' },
  { hours: 72, label: '3 days' },
  { hours: 168, label: '7 days' },
  { hours: 0, label: 'No time: the old secret stops signing now' },
];

type Said = { kind: 'ok' | 'error'; text: string };

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A moment to the second (a retry is often seconds away); its day only when that is not today. */
function moment(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (d.toDateString() === new Date().toDateString()) return d.toLocaleTimeString(undefined, { timeStyle: 'medium' });
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** Where a subscription stands, in a sentence. */
export function statusInWords(w: api.WebhookView): string {
  const next = w.next_attempt_date_time_utc ? `; next try at ${moment(w.next_attempt_date_time_utc)}` : '';
  if (w.status === 'disabled') {
    const failed = w.head_attempts > 0 ? ` Its oldest waiting event failed ${count(w.head_attempts, 'time')}.` : '';
    return `Stopped: nothing is sent until it is enabled again, which resumes from the event it stopped at.${failed}`;
  }
  if (w.status === 'failing') return `Failing since ${moment(w.failing_since)}: ${count(w.head_attempts, 'attempt')} on the oldest event${next}.`;
  if (w.head_attempts > 0) return `Delivering, but the oldest event failed: ${count(w.head_attempts, 'attempt')} so far${next}.`;
  return 'Delivering.';
}

const typesInWords = (types: readonly string[]) => (types.includes(ALL_EVENTS) ? 'All events' : types.join(', '));

function lastDeliveryInWords(last: api.WebhookView['last_delivery']): string {
  if (!last) return 'None yet.';
  const code = last.response_code === null ? 'no answer' : `answered ${last.response_code}`;
  return `${last.outcome === 'delivered' ? 'Delivered' : 'Failed'} (${code}) at ${moment(last.attempted_date_time_utc)}.`;
}

const outcomeInWords = (d: api.DeliveryView) => (d.outcome === 'delivered' ? `Delivered (answered ${d.response_code ?? '?'})` : `Failed: ${d.error ?? 'no reason given'}`);

/** A test event or a redelivery, as the person is told how it went. */
function attemptInWords(said: { delivered: string; not: string }, d: api.DeliveryView): Said {
  if (d.outcome === 'delivered') return { kind: 'ok', text: `${said.delivered}: your receiver answered ${d.response_code ?? '?'} in ${d.duration_ms} ms.` };
  return { kind: 'error', text: `${said.not}: ${d.error ?? 'no reason given'}. Check that the receiver runs, can be reached from the Waymark server and answers 2xx.` };
}

/** A refusal of the webhook operations in a person's words; a field's own problem is said by its field. */
export function webhookRefusal(error: unknown): { url?: string; types?: string; description?: string; form?: string } {
  if (error instanceof api.ApiError && error.code === 'VALIDATION_ERROR') {
    const issues = (error.details?.issues as Array<{ path: string; message: string }> | undefined) ?? [];
    const said: { url?: string; types?: string; description?: string; form?: string } = {};
    for (const issue of issues) {
      if (issue.path === 'url') {
        if (/must be https/.test(issue.message)) {
          said.url = /loopback/.test(issue.message)
            ? 'Use an https address (this server also accepts http to 127.0.0.1 or localhost, for a receiver on the same machine).'
            : 'Use an https address: Waymark sends events only over an encrypted connection.';
        } else if (/user name or password/.test(issue.message)) {
          said.url = 'Leave the user name and password out of the address: the signature on every event already proves it came from Waymark.';
        } else said.url = 'That is not a web address. Write it in full, starting with https://';
      } else if (issue.path.startsWith('event_types')) said.types = 'Choose at least one kind of event, or All events.';
      else if (issue.path === 'description') said.description = 'Keep the description under 500 characters.';
    }
    if (said.url || said.types || said.description) return said;
  }
  if (error instanceof api.ApiError && error.code === 'WEBHOOK_NOT_FOUND') return { form: 'This webhook is gone: someone removed it. The list now shows the webhooks as they are.' };
  if (error instanceof api.ApiError && error.code === 'DELIVERY_NOT_FOUND') return { form: 'That delivery is no longer in the log (its webhook may have been removed).' };
  return { form: refusalInWords(error) };
}

const refusal = (error: unknown) => {
  const said = webhookRefusal(error);
  return said.form ?? said.url ?? said.types ?? said.description ?? '';
};

const SNIPPET = `// npm install standardwebhooks express
import express from 'express';
import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.WAYMARK_WEBHOOK_SECRET); // the whsec_… secret
const app = express();

// The body exactly as sent: the signature covers its bytes.
app.post('/hooks/waymark', express.text({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    event = webhook.verify(req.body, req.headers); // throws if the signature or its time is wrong
  } catch {
    return res.sendStatus(400);
  }
  // req.headers['webhook-id'] is the same when an event comes again: handle each id once.
  console.log(event.type, event.data.resource_type, event.data.resource_id);
  res.sendStatus(204);
});

app.listen(3000);`;

/** A subscription as the list keeps it: the secret stays only in the panel that shows it once. */
function withoutSecret(made: api.WebhookWithSecret): api.WebhookView {
  const view: Partial<api.WebhookWithSecret> = { ...made };
  delete view.secret;
  return view as api.WebhookView;
}

type Shown = { webhook: api.WebhookWithSecret; rotated: boolean };

/** The secret, this once: a read-only field to copy, the warning, and how a receiver checks a signature with it. */
function SecretShown({ shown, onDone }: { shown: Shown; onDone(): void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus({ preventScroll: true });
  }, [shown]);
  const { webhook, rotated } = shown;
  return (
    <section class="secret-shown" aria-labelledby="secret-title">
      <h2 id="secret-title" ref={heading} tabIndex={-1}>
        {rotated ? 'The new signing secret' : 'The webhook was added: its signing secret'}
      </h2>
      <p>
        For <span class="url-text">{webhook.url}</span>.
      </p>
      <CopyOnce key={webhook.secret} id="webhook-secret" label="Signing secret" value={webhook.secret} what="secret" describedBy="secret-once" />
      <p id="secret-once" class="notice">
        <strong>Copy it now: you will not see it again.</strong> Waymark shows a secret only when it is made. Keep it where your receiver runs (below, in
        WAYMARK_WEBHOOK_SECRET); if it is lost, rotate the secret to get a new one.
      </p>
      {rotated && (
        <p class="overlap">
          {webhook.previous_secret_until
            ? `The old secret still signs beside the new one until ${when(webhook.previous_secret_until)}: give your receiver the new one before then.`
            : 'The old secret no longer signs: give your receiver the new one now.'}
        </p>
      )}
      <h3>Check the signature in your receiver</h3>
      <p>
        Every delivery carries the headers webhook-id, webhook-timestamp and webhook-signature (the Standard Webhooks specification). With its
        JavaScript library:
      </p>
      <pre class="snippet" tabIndex={0} aria-label="A receiver that checks signatures, in JavaScript">
        <code>{SNIPPET}</code>
      </pre>
      <button type="button" onClick={onDone}>
        I have copied the secret
      </button>
    </section>
  );
}

/** A webhook's delivery log, newest first, a page at a time; any attempt can be made again. */
function DeliveryLog(props: { id: string; webhook: api.WebhookView; canChange: boolean; fresh: number; onAttempt(said: Said): void }) {
  const [rows, setRows] = useState<api.DeliveryView[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  // What is shown, for a merge that must not wait for a render.
  const shownRows = useRef<api.DeliveryView[] | null>(null);
  const webhookId = props.webhook.webhook_id;
  const put = (next: api.DeliveryView[], nextCursor?: string | null) => {
    shownRows.current = next;
    setRows(next);
    if (nextCursor !== undefined) setCursor(nextCursor);
  };

  /** The newest page, over what is shown: what came since goes on top, older pages already read stay. */
  const newest = async () => {
    const page = await api.webhookDeliveries(webhookId, { limit: LOG_PAGE });
    setFailed(null);
    const before = shownRows.current;
    const ids = new Set(page.deliveries.map((d) => d.delivery_id));
    const kept = (before ?? []).filter((d) => !ids.has(d.delivery_id));
    // The first read, or nothing in common (more came than a page holds): this page, from the start.
    if (!before || (before.length > 0 && kept.length === before.length)) put(page.deliveries, page.next_cursor);
    else put([...page.deliveries, ...kept]);
  };
  const refresh = () => newest().catch((e: unknown) => setFailed(refusal(e)));
  // Again whenever the list shows a newer attempt, or this page made one.
  useEffect(() => void refresh(), [webhookId, props.webhook.last_delivery?.attempted_date_time_utc, props.fresh]);

  const older = () => {
    if (!cursor) return;
    setBusy('older');
    api
      .webhookDeliveries(webhookId, { limit: LOG_PAGE, cursor })
      .then((page) => put([...(shownRows.current ?? []), ...page.deliveries], page.next_cursor))
      .catch((e: unknown) => setFailed(refusal(e)))
      .finally(() => setBusy(null));
  };
  const again = (d: api.DeliveryView) => {
    setBusy(d.delivery_id);
    api
      .redeliverWebhook(webhookId, d.delivery_id)
      .then((made) => {
        props.onAttempt(attemptInWords({ delivered: `${d.event_type} sent again and delivered`, not: `${d.event_type} sent again but not delivered` }, made));
        return newest();
      })
      .catch((e: unknown) => props.onAttempt({ kind: 'error', text: refusal(e) }))
      .finally(() => setBusy(null));
  };

  return (
    <div id={props.id} class="delivery-log">
      <h3>Delivery log</h3>
      {failed && (
        <p role="alert" class="error-summary">
          {failed}
        </p>
      )}
      {!rows && !failed && <p class="loading">Loading the log…</p>}
      {rows && rows.length === 0 && <p>Nothing was sent to it yet.</p>}
      {rows && rows.length > 0 && (
        <div class="table-wrap">
          <table class="deliveries">
            <caption class="muted">
              {`${count(rows.length, 'attempt')} shown, newest first${cursor ? '; older ones follow' : ''}.`}
            </caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Outcome</th>
                <th scope="col">Took</th>
                {props.canChange && <th scope="col">Again</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.delivery_id} class={`delivery ${d.outcome}`}>
                  <td>{moment(d.attempted_date_time_utc)}</td>
                  <td>
                    <code>{d.event_type}</code>
                    <span class="muted"> {d.event_seq === 0 ? '(a test)' : `(change ${d.event_seq})`}</span>
                  </td>
                  <td>{d.attempt}</td>
                  <td>{outcomeInWords(d)}</td>
                  <td>{d.duration_ms} ms</td>
                  {props.canChange && (
                    <td>
                      <button type="button" class="link" disabled={busy !== null} onClick={() => again(d)}>
                        Send again
                        <span class="visually-hidden">
                          {' '}
                          {d.event_type}, attempt {d.attempt} of {moment(d.attempted_date_time_utc)}
                        </span>
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="row-actions">
        {cursor && (
          <button type="button" disabled={busy !== null} onClick={older}>
            Show older deliveries
          </button>
        )}
        <button type="button" class="link" onClick={() => void refresh()}>
          Refresh the log
        </button>
      </div>
    </div>
  );
}

function WebhookItem(props: { webhook: api.WebhookView; scopes: api.ScopeView[]; canChange: boolean; onChanged(w: api.WebhookView): void; onRemoved(w: api.WebhookView): void; onSecret(s: Shown): void; onGone(): void }) {
  const w = props.webhook;
  const [said, setSaid] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);
  const [logOpen, setLogOpen] = useState(false);
  const [fresh, setFresh] = useState(0);
  const [asking, setAsking] = useState<'rotate' | 'remove' | null>(null);
  const [overlap, setOverlap] = useState(24);
  const key = w.webhook_id;

  const act = (work: () => Promise<void>) => {
    setBusy(true);
    setSaid(null);
    work()
      .catch((e: unknown) => {
        setSaid({ kind: 'error', text: refusal(e) });
        if (e instanceof api.ApiError && e.code === 'WEBHOOK_NOT_FOUND') props.onGone();
      })
      .finally(() => setBusy(false));
  };
  const test = () =>
    act(async () => {
      const d = await api.sendTestWebhook(key);
      setSaid(attemptInWords({ delivered: 'Test event delivered', not: 'Test event not delivered' }, d));
      setFresh((n) => n + 1);
    });
  const setStatus = (status: 'active' | 'disabled') =>
    act(async () => {
      props.onChanged(await api.updateWebhook(key, { status }));
      setSaid({
        kind: 'ok',
        text: status === 'disabled' ? 'Disabled: nothing is sent to it until it is enabled again; the changes meanwhile wait for it.' : 'Enabled: it sends again from the event it stopped at.',
      });
    });
  // A dialog closes on its answer, so that what follows (the secret, or a refusal) is seen.
  const rotate = () => {
    setAsking(null);
    act(async () => {
      const made = await api.rotateWebhookSecret(key, overlap);
      props.onChanged(withoutSecret(made));
      props.onSecret({ webhook: made, rotated: true });
      setSaid({ kind: 'ok', text: 'The secret was rotated: the new one is shown at the top of the page, this once.' });
    });
  };
  const remove = () => {
    setAsking(null);
    act(async () => {
      await api.deleteWebhook(key);
      props.onRemoved(w);
    });
  };

  return (
    <li>
      <article class="webhook" aria-labelledby={`webhook-${key}-url`}>
        <h2 id={`webhook-${key}-url`} class="url-text">
          {w.url}
        </h2>
        {w.description && <p class="webhook-description">{w.description}</p>}
        <dl class="facts">
          <dt>Status</dt>
          <dd class={`webhook-status state-${w.status}${w.status === 'active' && w.head_attempts > 0 ? '-retrying' : ''}`}>{statusInWords(w)}</dd>
          <dt>Events</dt>
          <dd class="webhook-types">{typesInWords(w.event_types)}</dd>
          <dt>Behind</dt>
          <dd class="webhook-behind">{w.events_behind === 0 ? 'Up to date.' : `${count(w.events_behind, 'change')} of the account not handled yet.`}</dd>
          <dt>Last delivery</dt>
          <dd class="webhook-last">{lastDeliveryInWords(w.last_delivery)}</dd>
          {w.previous_secret_until && (
            <>
              <dt>Old secret</dt>
              <dd>Still signs beside the new one until {when(w.previous_secret_until)}.</dd>
            </>
          )}
          {w.scope_id && (
            <>
              <dt>Scope</dt>
              <dd>{props.scopes.some((s) => s.scope_id === w.scope_id) ? `Changes in the scope ${scopeInWords(w.scope_id, props.scopes)} only.` : 'Changes in its scope only.'}</dd>
            </>
          )}
          <dt>Added</dt>
          <dd>{when(w.created_date_time_utc)}</dd>
        </dl>
        <div aria-live="polite">{said?.kind === 'ok' && <p class="notice webhook-result">{said.text}</p>}</div>
        {said?.kind === 'error' && (
          <p role="alert" class="error-summary webhook-result">
            {said.text}
          </p>
        )}
        <div class="row-actions">
          {props.canChange && (
            <button type="button" disabled={busy} onClick={test}>
              Send a test event
            </button>
          )}
          <button type="button" aria-expanded={logOpen} aria-controls={`webhook-${key}-log`} onClick={() => setLogOpen(!logOpen)}>
            {logOpen ? 'Hide the delivery log' : 'Show the delivery log'}
          </button>
          {props.canChange && (
            <>
              {w.status === 'disabled' ? (
                <button type="button" disabled={busy} onClick={() => setStatus('active')}>
                  Enable
                </button>
              ) : (
                <button type="button" disabled={busy} onClick={() => setStatus('disabled')}>
                  Disable
                </button>
              )}
              <button type="button" disabled={busy} onClick={() => setAsking('rotate')}>
                Rotate the secret
              </button>
              <button type="button" disabled={busy} onClick={() => setAsking('remove')}>
                Remove
              </button>
            </>
          )}
        </div>
        {logOpen && <DeliveryLog id={`webhook-${key}-log`} webhook={w} canChange={props.canChange} fresh={fresh} onAttempt={setSaid} />}
      </article>
      {asking === 'rotate' && (
        <ConfirmDialog id="rotate-dialog" title="Rotate the signing secret?" confirm="Rotate the secret" busy={busy} onConfirm={rotate} onCancel={() => setAsking(null)}>
          <p>
            A new secret signs every delivery to <span class="url-text">{w.url}</span> from now on; it is shown once. The old one can go on signing beside it for a
            while, so the receiver keeps accepting events until it has the new one.
          </p>
          <div class="field">
            <label for="rotate-overlap">The old secret goes on signing for</label>
            <select id="rotate-overlap" value={String(overlap)} onChange={(e) => setOverlap(Number((e.currentTarget as HTMLSelectElement).value))}>
              {OVERLAPS.map((o) => (
                <option key={o.hours} value={String(o.hours)}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
        </ConfirmDialog>
      )}
      {asking === 'remove' && (
        <ConfirmDialog id="remove-dialog" title="Remove this webhook?" confirm="Remove the webhook" busy={busy} onConfirm={remove} onCancel={() => setAsking(null)}>
          <p>
            Nothing more is sent to <span class="url-text">{w.url}</span>, and its delivery log is removed. This cannot be undone: to pause it instead, disable it.
          </p>
        </ConfirmDialog>
      )}
    </li>
  );
}

type FieldErrors = ReturnType<typeof webhookRefusal>;

function AddWebhook({ onAdded }: { onAdded(made: api.WebhookWithSecret): void }) {
  const [url, setUrl] = useState('');
  const [all, setAll] = useState(false);
  const [types, setTypes] = useState<ReadonlySet<string>>(new Set());
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const urlField = useRef<HTMLInputElement>(null);
  const typesBox = useRef<HTMLFieldSetElement>(null);
  const descriptionField = useRef<HTMLTextAreaElement>(null);
  const formError = useRef<HTMLParagraphElement>(null);

  /** The first field with a problem takes the focus, so its message is read with it. */
  const show = (found: FieldErrors) => {
    setErrors(found);
    requestAnimationFrame(() => {
      if (found.url) urlField.current?.focus();
      else if (found.types) typesBox.current?.querySelector('input')?.focus();
      else if (found.description) descriptionField.current?.focus();
      else formError.current?.focus();
    });
  };
  const submit = (e: Event) => {
    e.preventDefault();
    const eventTypes = all ? [ALL_EVENTS] : WEBHOOK_EVENT_TYPES.map((t) => t.name).filter((n) => types.has(n));
    const found: FieldErrors = {};
    if (url.trim() === '') found.url = 'Write the address that should receive the events, starting with https://';
    if (eventTypes.length === 0) found.types = 'Choose at least one kind of event, or All events.';
    if (found.url || found.types) return show(found);
    setBusy(true);
    api
      .createWebhook({ url: url.trim(), event_types: eventTypes, ...(description.trim() ? { description: description.trim() } : {}) })
      .then((made) => {
        setErrors({});
        setUrl('');
        setAll(false);
        setTypes(new Set());
        setDescription('');
        onAdded(made);
      })
      .catch((error: unknown) => show(webhookRefusal(error)))
      .finally(() => setBusy(false));
  };
  const toggle = (name: string, on: boolean) => {
    const next = new Set(types);
    if (on) next.add(name);
    else next.delete(name);
    setTypes(next);
  };

  return (
    <section aria-labelledby="add-title" class="add-webhook">
      <h2 id="add-title">Add a webhook</h2>
      <form noValidate onSubmit={submit}>
        <div class="field">
          <label for="webhook-url">Receiver's address</label>
          <p id="webhook-url-hint" class="muted">
            An https URL that accepts POST requests, such as https://example.com/hooks/waymark.
          </p>
          {errors.url && (
            <p id="webhook-url-error" class="field-error">
              {errors.url}
            </p>
          )}
          <input
            id="webhook-url"
            ref={urlField}
            type="url"
            inputMode="url"
            autoComplete="url"
            value={url}
            aria-invalid={errors.url ? 'true' : undefined}
            aria-describedby={errors.url ? 'webhook-url-error webhook-url-hint' : 'webhook-url-hint'}
            onInput={(e) => setUrl((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
        <fieldset ref={typesBox} aria-describedby={errors.types ? 'webhook-types-error' : undefined}>
          <legend>Events to send</legend>
          {errors.types && (
            <p id="webhook-types-error" class="field-error">
              {errors.types}
            </p>
          )}
          <div class="option">
            <input id="webhook-type-all" type="checkbox" checked={all} aria-describedby="webhook-type-all-text" onChange={(e) => setAll((e.currentTarget as HTMLInputElement).checked)} />
            <label for="webhook-type-all">All events</label>
            <span id="webhook-type-all-text" class="notes">
              Every kind below, and any kind added later.
            </span>
          </div>
          {WEBHOOK_EVENT_TYPES.map((t) => (
            <div class="option" key={t.name}>
              <input
                id={`webhook-type-${t.name}`}
                type="checkbox"
                disabled={all}
                checked={all || types.has(t.name)}
                aria-describedby={`webhook-type-${t.name}-text`}
                onChange={(e) => toggle(t.name, (e.currentTarget as HTMLInputElement).checked)}
              />
              <label for={`webhook-type-${t.name}`}>
                <code>{t.name}</code>
              </label>
              <span id={`webhook-type-${t.name}-text`} class="notes">
                {t.description}
              </span>
            </div>
          ))}
        </fieldset>
        <div class="field">
          <label for="webhook-description">Description (optional)</label>
          {errors.description && (
            <p id="webhook-description-error" class="field-error">
              {errors.description}
            </p>
          )}
          <textarea
            id="webhook-description"
            ref={descriptionField}
            rows={2}
            maxLength={500}
            value={description}
            aria-invalid={errors.description ? 'true' : undefined}
            aria-describedby={errors.description ? 'webhook-description-error' : undefined}
            onInput={(e) => setDescription((e.currentTarget as HTMLTextAreaElement).value)}
          />
        </div>
        {errors.form && (
          <p role="alert" class="error-summary" tabIndex={-1} ref={formError}>
            {errors.form}
          </p>
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Add the webhook
          </button>
        </div>
      </form>
    </section>
  );
}

function Webhooks() {
  const me = useMe();
  const canChange = may(me, 'author', 'admin');
  const [list, setList] = useState<api.WebhookView[] | null>(null);
  const scopes = useScopes();
  const [failed, setFailed] = useState<string | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const reload = () =>
    api.webhooks().then(
      (r) => {
        setList(r.webhooks);
        setFailed(null);
      },
      (e: unknown) => setFailed(refusal(e)),
    );
  useEffect(() => {
    void reload();
    const timer = setInterval(() => document.visibilityState === 'visible' && void reload(), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  const changed = (w: api.WebhookView) => setList((before) => (before ?? []).map((x) => (x.webhook_id === w.webhook_id ? w : x)));
  const removed = (w: api.WebhookView) => {
    setList((before) => (before ?? []).filter((x) => x.webhook_id !== w.webhook_id));
    if (shown?.webhook.webhook_id === w.webhook_id) setShown(null);
    setSaid(`Removed the webhook for ${w.url}: nothing more is sent to it.`);
    // Its buttons are gone: the page's top takes the focus.
    requestAnimationFrame(() => heading.current?.focus());
  };

  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        Webhooks
      </h1>
      <p>
        Waymark sends this account's changes of the kinds you choose to an address of yours, in the order they happened, each signed so your receiver can
        check it came from this server. A receiver that does not answer is tried again for about 32 hours, then stopped.
      </p>
      {!canChange && (
        <p class="notice">
          Your sign-in lets you see the webhooks but not change them. A sign-in link that may author content (with Admin permission) may add, test and remove
          them.
        </p>
      )}
      <div aria-live="polite">{said && <p class="notice page-result">{said}</p>}</div>
      {shown && <SecretShown shown={shown} onDone={() => setShown(null)} />}
      {failed && (
        <p role="alert" class="error-summary">
          {failed}
        </p>
      )}
      {!list && !failed && <p class="loading">Loading…</p>}
      {list && (
        <>
          <div class="row-actions">
            <p class="counts">{list.length === 0 ? 'No webhooks yet.' : `${count(list.length, 'webhook')}.`}</p>
            <button type="button" class="link" onClick={() => void reload()}>
              Refresh
            </button>
          </div>
          {list.length > 0 && (
            <ul class="webhooks" aria-label="Webhooks">
              {list.map((w) => (
                <WebhookItem
                  key={w.webhook_id}
                  webhook={w}
                  scopes={scopes}
                  canChange={canChange}
                  onChanged={changed}
                  onRemoved={removed}
                  onSecret={(s) => setShown(s)}
                  onGone={() => void reload()}
                />
              ))}
            </ul>
          )}
        </>
      )}
      {canChange && (
        <AddWebhook
          onAdded={(made) => {
            setSaid(null);
            setShown({ webhook: made, rotated: false });
            void reload();
          }}
        />
      )}
    </>
  );
}

/** Admins only, as the navigation shows it; anyone else who opens it is told why it is empty for them. */
export function WebhooksPage() {
  const me = useMe();
  if (me?.permission !== 'admin') {
    return (
      <>
        <h1>Webhooks</h1>
        <p class="notice">Webhooks, which send the account's changes to other systems, are for Admins. Ask an Admin of your account to add one.</p>
      </>
    );
  }
  return <Webhooks />;
}
