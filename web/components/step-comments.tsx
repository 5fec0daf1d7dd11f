/**
 * Talking on a step (issue 27) in the app: a step's comments (comment-list.tsx) and a box to add one, read and
 * written through the app's API.
 */
import { useEffect, useState } from 'preact/hooks';
import { LIMITS } from '../../src/limits/index.js';
import type { StepComments as StepCommentsView } from '../../src/services/trails/comment-shapes.js';
import * as api from '../api.js';
import { CommentList } from './comment-list.js';

/** Every comment of a trail (or of one step), oldest first, read page by page. */
async function allComments(trailId: string, stepId?: string): Promise<api.CommentView[]> {
  const out: api.CommentView[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.trailComments(trailId, { step_id: stepId, cursor, limit: LIMITS.pageSize });
    out.push(...page.comments);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return out;
}

/** The box to write a comment: `post` keeps it, then the list is read again. */
function CommentBox({ id, post }: { id: string; post(text: string): Promise<void> }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (text.trim() === '') {
      setError('Write the comment first.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await post(text);
      setText('');
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="comment-box" onSubmit={submit} noValidate>
      <label for={id}>Add a comment</label>
      <textarea id={id} rows={3} maxLength={LIMITS.commentLength} value={text} aria-describedby={`${id}-help`} aria-invalid={error ? true : undefined} onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)} />
      <p id={`${id}-help`} class="rules">
        Everyone who can see this trail reads it. Write @ and a person's name or email to tell them. At most {LIMITS.commentLength} characters.
      </p>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        Comment
      </button>
    </form>
  );
}

/** The current step's comments on the step page: its newest (from the step payload), all of them on request, and the box. */
export function StepComments({ trailId, stepId, initial }: { trailId: string; stepId: string; initial: StepCommentsView }) {
  const [shown, setShown] = useState<{ comments: readonly api.CommentView[]; total: number }>({ comments: initial.latest, total: initial.total });
  const [status, setStatus] = useState<string | null>(null);
  useEffect(() => setShown({ comments: initial.latest, total: initial.total }), [initial]);
  const showAll = async () => {
    const comments = await allComments(trailId, stepId);
    setShown({ comments, total: comments.length });
  };
  const earlier = shown.total - shown.comments.length;
  return (
    <section class="step-comments" aria-labelledby="comments-title">
      <h2 id="comments-title">Comments ({shown.total})</h2>
      {earlier > 0 && (
        <button type="button" class="link-button" onClick={() => void showAll().catch((e: Error) => setStatus(e.message))}>
          Show {earlier} earlier comment{earlier === 1 ? '' : 's'}
        </button>
      )}
      <CommentList comments={shown.comments} />
      <CommentBox
        id="comment-text"
        post={async (text) => {
          const { mentions } = await api.commentOnStep(trailId, text, stepId);
          await showAll();
          setStatus(mentions.length > 0 ? `Comment added; told ${mentions.map((m) => m.name).join(', ')}.` : 'Comment added.');
        }}
      />
      {status && (
        <p class="notice" role="status">
          {status}
        </p>
      )}
    </section>
  );
}

/** Every comment of a trail on its page, under the step it was made on, and the box for the current (or last) step. */
export function TrailComments({ trail }: { trail: api.TrailView }) {
  const [comments, setComments] = useState<api.CommentView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () => allComments(trail.trail_id).then(setComments, (e: Error) => setError(e.message));
  useEffect(() => void load(), [trail.trail_id]);
  const steps = trail.history.filter((h) => comments?.some((c) => c.step_id === h.step_id));
  const last = trail.history.at(-1);
  return (
    <section class="step-comments" aria-labelledby="trail-comments-title">
      <h2 id="trail-comments-title">Comments{comments ? ` (${comments.length})` : ''}</h2>
      {error && (
        <p class="error-summary" role="alert">
          {error}
        </p>
      )}
      {comments === null && !error && <p class="loading">Loading…</p>}
      {comments?.length === 0 && <p class="muted">No comments yet.</p>}
      {steps.map((h) => (
        <div key={h.step_id}>
          <h3>
            {h.seq}. {h.bit_title}
          </h3>
          <CommentList comments={comments?.filter((c) => c.step_id === h.step_id) ?? []} />
        </div>
      ))}
      {last && (
        <CommentBox
          id="trail-comment-text"
          post={async (text) => {
            await api.commentOnStep(trail.trail_id, text, trail.current_step?.step_id ?? last.step_id);
            await load();
          }}
        />
      )}
    </section>
  );
}
