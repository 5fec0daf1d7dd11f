/**
 * A bit's or flow's history on its page (issue 26): its revisions, newest first, each with who made it and when;
 * what changed in one, or between any two; and a revision restored after a confirmation.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import * as api from '../api.js';
import { notRestoredInWords, refusalInWords, whatWasDone, whoDid, withNamesOf, type Names } from './change-words.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { ChangesView, FlowChangesView } from './diff-view.js';
import { when } from './loaded.js';
import { may, useMe } from '../me.js';

const PAGE = 20;

type Diff = { state: 'loading'; from: number; to: number } | { state: 'ok'; diff: api.RevisionDiff } | { state: 'failed'; message: string };
type Message = { kind: 'ok' | 'error'; text: string };

export function HistoryPanel(props: {
  type: api.Revised;
  id: string;
  /** "bit", "flow": how the texts name the resource. */
  noun: string;
  /** When the resource last changed: its history is read again when this moves on. */
  changed: string;
  /** Bit titles by id, for the connections a diff names. */
  titles?: ReadonlyMap<string, string>;
  /** After a restore: the page reads the resource again. */
  onRestored(): void;
}) {
  const me = useMe();
  const [events, setEvents] = useState<api.EventView[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [names, setNames] = useState<Names>(new Map());
  const [range, setRange] = useState<{ from: number; to: number } | null>(null);
  const [diff, setDiff] = useState<Diff | null>(null);
  const [restoring, setRestoring] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);
  const diffHeading = useRef<HTMLHeadingElement>(null);

  const load = async (after?: string) => {
    const page = await api.history({ resource_type: props.type, resource_id: props.id, limit: PAGE, cursor: after });
    const revised = page.events.filter((e) => e.revision !== null);
    setNames(await withNamesOf(revised, names, me));
    setEvents((before) => (after && before ? [...before, ...revised] : revised));
    setCursor(page.next_cursor);
  };
  useEffect(() => {
    load().catch((e: unknown) => setFailed(refusalInWords(e)));
  }, [props.type, props.id, props.changed]);

  const revisions = (events ?? []).map((e) => e.revision as number);
  const latest = revisions[0] ?? 0;
  // The compare form's choice; by default the latest revision against the one before it.
  const from = range?.from ?? revisions[1] ?? latest;
  const to = range?.to ?? latest;

  const showDiff = async (a: number, b: number) => {
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    setDiff({ state: 'loading', from: lo, to: hi });
    try {
      setDiff({ state: 'ok', diff: await api.diffRevisions(props.type, props.id, { from: lo, to: hi }) });
    } catch (e) {
      setDiff({ state: 'failed', message: refusalInWords(e) });
    }
    // The answer is read from its heading, as a new page is.
    diffHeading.current?.focus();
  };

  const restore = async (revision: number) => {
    setBusy(true);
    try {
      const done = await api.restoreRevision(props.type, props.id, revision);
      const kept = done.not_restored.length > 0 ? ` Left as they are: ${notRestoredInWords(done.not_restored)}.` : '';
      setMessage({
        kind: 'ok',
        text: done.revision === latest ? `Revision ${revision} is the same as the latest: nothing changed.` : `Restored revision ${revision}: the ${props.noun} is now revision ${done.revision}.${kept}`,
      });
      setDiff(null);
      setRange(null);
      props.onRestored();
    } catch (e) {
      setMessage({ kind: 'error', text: `Revision ${revision} was not restored. ${refusalInWords(e)}` });
    } finally {
      setBusy(false);
      setRestoring(null);
    }
  };

  const canRestore = may(me, 'author', 'edit');
  const diffTitle = diff?.state === 'ok' ? `Changes from revision ${diff.diff.from_revision} to revision ${diff.diff.to_revision}` : diff?.state === 'loading' ? `Changes from revision ${diff.from} to revision ${diff.to}` : 'Changes';

  return (
    <section aria-labelledby="history-title" class="history-panel">
      <h2 id="history-title">History</h2>
      <div aria-live="polite">{message?.kind === 'ok' && <p class="notice restore-result">{message.text}</p>}</div>
      {message?.kind === 'error' && (
        <p role="alert" class="error-summary restore-result">
          {message.text}
        </p>
      )}
      {failed && <p role="alert" class="error-summary">{failed}</p>}
      {!events && !failed && <p class="loading">Loading the history…</p>}
      {events && events.length === 0 && <p>No revisions are kept for this {props.noun}.</p>}
      {events && events.length > 0 && (
        <>
          <ol class="revisions" aria-label={`Revisions of this ${props.noun}, newest first`}>
            {events.map((e) => {
              const revision = e.revision as number;
              const what = whatWasDone(e);
              return (
                <li key={e.event_id} class="revision">
                  <p class="revision-what">
                    <strong>Revision {revision}</strong>
                    {revision === latest && ' (the latest)'}: {whoDid(e, names, me)} {what.verb}
                    {what.alone ? '' : ` this ${props.noun}`} · <time dateTime={e.occurred_date_time_utc}>{when(e.occurred_date_time_utc)}</time>
                  </p>
                  <p class="row-actions">
                    {revisions.includes(revision - 1) && (
                      <button type="button" class="link" onClick={() => void showDiff(revision - 1, revision)}>
                        What changed in revision {revision}
                      </button>
                    )}
                    {canRestore && revision !== latest && (
                      <button type="button" onClick={() => setRestoring(revision)}>
                        Restore revision {revision}
                      </button>
                    )}
                  </p>
                </li>
              );
            })}
          </ol>
          {cursor && (
            <button type="button" onClick={() => void load(cursor).catch((e: unknown) => setFailed(refusalInWords(e)))}>
              Show older revisions
            </button>
          )}
          {revisions.length > 1 && (
            <form
              class="compare filters"
              aria-labelledby="compare-title"
              onSubmit={(e) => {
                e.preventDefault();
                void showDiff(from, to);
              }}
            >
              <h3 id="compare-title" class="full">
                Compare two revisions
              </h3>
              <div class="field">
                <label for="compare-from">From revision</label>
                <select id="compare-from" value={from} onChange={(e) => setRange({ from: Number((e.currentTarget as HTMLSelectElement).value), to })}>
                  {revisions.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              </div>
              <div class="field">
                <label for="compare-to">To revision</label>
                <select id="compare-to" value={to} onChange={(e) => setRange({ from, to: Number((e.currentTarget as HTMLSelectElement).value) })}>
                  {revisions.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              </div>
              <p class="full">
                <button type="submit">Show the changes</button>
              </p>
            </form>
          )}
        </>
      )}
      {diff && (
        <section aria-labelledby="diff-title" class="diff-result">
          <h3 id="diff-title" ref={diffHeading} tabIndex={-1}>
            {diffTitle}
          </h3>
          {diff.state === 'loading' && <p class="loading">Loading the changes…</p>}
          {diff.state === 'failed' && <p role="alert" class="error-summary">{diff.message}</p>}
          {diff.state === 'ok' &&
            (props.type === 'flow' ? <FlowChangesView diff={diff.diff} titles={props.titles ?? new Map()} empty="Nothing differs between these two revisions." /> : <ChangesView changes={diff.diff} level={4} titles={props.titles} />)}
        </section>
      )}
      {restoring !== null && (
        <ConfirmDialog id="restore-dialog" title={`Restore revision ${restoring}?`} confirm={`Restore revision ${restoring}`} busy={busy} onConfirm={() => void restore(restoring)} onCancel={() => setRestoring(null)}>
          <p>
            The {props.noun} is written back as it was in revision {restoring}, as a new revision. Nothing is lost: the revisions since stay in its history, and can be
            restored in turn.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
