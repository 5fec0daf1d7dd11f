/**
 * A step's comments as a list (issue 27). A comment is plain text: rendered as text (Preact escapes it;
 * `white-space: pre-wrap` keeps its lines), never as markup. No calls of its own, so the MCP App shows it
 * read-only from the step payload, and the app's pages (step-comments.tsx) around their own reads.
 */
import type { CommentView } from '../../src/services/trails/comment-shapes.js';
import { when } from './loaded.js';

export function CommentList({ comments }: { comments: readonly CommentView[] }) {
  if (comments.length === 0) return <p class="muted">No comments yet.</p>;
  return (
    <ol class="comments">
      {comments.map((c) => (
        <li key={c.comment_id}>
          <p class="comment-head">
            <strong>{c.author.kind === 'agent' ? `${c.author.name} (agent)` : c.author.name}</strong> <span class="muted">{when(c.created_date_time_utc)}</span>
          </p>
          <p class="comment-text">{c.text}</p>
          {c.mentions.length > 0 && <p class="muted">Mentioned: {c.mentions.map((m) => m.name).join(', ')}</p>}
        </li>
      ))}
    </ol>
  );
}

