/**
 * Comments on a trail's steps (issue 27, "Talking on a step"): people (in the app) and agents (comment_on_step)
 * ask a question or leave a note on a step; `@` mentions tell the people named. A comment is content: plain text,
 * bounded (LIMITS.commentLength), shown as text everywhere, and seen only through its trail, so only by those
 * who may see the trail.
 *
 * A finished (completed or cancelled) trail may still be commented on: a team asks "why was this cancelled?" or
 * notes what followed on the step where it happened, and a comment changes nothing of the run. Likewise an agent may
 * comment on a step it may not answer (human_required, or a person's): commenting answers nothing.
 */
import { randomUUID } from 'node:crypto';
import { validationError, WaymarkError } from '../../errors.js';
import { LIMITS } from '../../limits/index.js';
import * as comments from '../../store/repositories/comments.repo.js';
import { findFlow } from '../../store/repositories/flows.repo.js';
import { findStep, findTrail, lockTrail, stepBits, stepsOf, type StepRow } from '../../store/repositories/trails.repo.js';
import type { TrailTable } from '../../store/schema.js';
import type { Db, Store, Tx } from '../../store/store.js';
import { OPERATOR_PRINCIPAL, type Actor } from '../actor.js';
import { nextModified } from '../clock.js';
import { recordChange } from '../events/record.js';
import { notify } from '../notifications/record.js';
import type { CommentPage, CommentView, StepComments } from './comment-shapes.js';
import type { CommentedTrailView } from './commented-trail.js';
import { findMentions, mentionLeads } from './mentions.js';
import type { TrailView } from './shapes.js';

type Q = Db | Tx;

export interface CommentInput {
  trail_id: string;
  /** Omitted: the current step, or the last step of a finished trail. */
  step_id?: string;
  text: string;
}

export interface CommentListInput {
  trail_id: string;
  step_id?: string;
  cursor?: string;
  limit?: number;
}

function trailNotFound(trailId: string): WaymarkError {
  return new WaymarkError('TRAIL_NOT_FOUND', `No trail ${trailId} is visible to this token: list_trails shows the trails you can use.`, { trail_id: trailId });
}

/** The text as kept: trimmed, 1 to LIMITS.commentLength characters. */
function commentText(text: string): string {
  const kept = text.trim();
  if (kept === '') throw validationError([{ path: 'text', message: 'must not be blank' }], 'The comment is blank: write the question or note in text.');
  if (kept.length > LIMITS.commentLength) {
    throw validationError(
      [{ path: 'text', message: `must be at most ${LIMITS.commentLength} characters` }],
      `The comment has ${kept.length} characters; at most ${LIMITS.commentLength} are kept. Shorten it, or split it into several comments.`,
      { limit: 'commentLength', max: LIMITS.commentLength },
    );
  }
  return kept;
}

/** What a mentioned person is told of the comment: its start, whitespace folded, at most LIMITS.mentionExcerptLength characters. */
export function excerptOf(text: string): string {
  const folded = text.replace(/\s+/gu, ' ').trim();
  const max = LIMITS.mentionExcerptLength;
  return folded.length <= max ? folded : `${folded.slice(0, max - 1).trimEnd()}…`;
}

/** Comments as read: each author and mention by name. */
async function viewsOf(q: Q, accountId: string, rows: comments.CommentRow[]): Promise<CommentView[]> {
  const mentioned = rows.map((r) => JSON.parse(r.mentions) as string[]);
  const names = await comments.namesOf(q, accountId, [...new Set(mentioned.flat())]);
  return rows.map((row, i) => ({
    comment_id: row.id,
    step_id: row.step_id,
    author: {
      principal_id: row.principal_id,
      name: row.author_name ?? (row.principal_id === OPERATOR_PRINCIPAL ? 'the operator' : 'someone'),
      kind: row.author_kind ?? 'person',
    },
    text: row.body,
    // A mentioned principal since removed is left out: it names no one who could read the comment.
    mentions: (mentioned[i] ?? []).flatMap((id) => {
      const name = names.get(id);
      return name === undefined ? [] : [{ principal_id: id, name }];
    }),
    created_date_time_utc: row.created_at,
  }));
}

/**
 * A step's newest LIMITS.commentsShown comments with its total (get_trail, the step form). `trailId` is one the
 * caller has been shown.
 */
export async function stepComments(q: Q, accountId: string, trailId: string, stepId: string, total?: number): Promise<StepComments> {
  const count = total ?? (await comments.countComments(q, trailId, stepId));
  const latest = count === 0 ? [] : await viewsOf(q, accountId, await comments.newestOfStep(q, trailId, stepId, LIMITS.commentsShown));
  const older = count - latest.length;
  return {
    total: count,
    latest,
    more:
      older > 0
        ? `${older} earlier comment${older === 1 ? '' : 's'} of this step: the trail's comments list (GET /api/v1/trails/${trailId}/comments?step_id=${stepId}) has every one, oldest first.`
        : null,
  };
}

export class CommentsService {
  constructor(private readonly store: Store) {}

  /** The trail's step named, or its current one, or the last one it was on once finished; another trail's step is not found. */
  private async stepOf(q: Q, trail: TrailTable, stepId: string | undefined): Promise<StepRow> {
    if (stepId !== undefined) {
      const step = await findStep(q, stepId);
      if (step && step.trail_id === trail.id) return step;
      throw new WaymarkError('STEP_NOT_FOUND', `Trail ${trail.id} has no step ${stepId}: get_trail lists its steps (history[].step_id); omit step_id for the current step.`, {
        trail_id: trail.id,
        step_id: stepId,
      });
    }
    const step = trail.current_step_id ? await findStep(q, trail.current_step_id) : (await stepsOf(q, trail.id)).at(-1);
    if (!step) throw new Error(`trail ${trail.id} has no step`);
    return step;
  }

  /** comment_on_step: the comment kept, each mentioned person who can see the trail told, one event. */
  async add(actor: Actor, input: CommentInput): Promise<CommentView> {
    const text = commentText(input.text);
    return this.store.transaction(async (tx) => {
      // Under the trail's lock, so that each comment's time follows the one before (oldest first is the order kept).
      const trail = await lockTrail(tx, this.store.dialect, input.trail_id, actor);
      if (!trail) throw trailNotFound(input.trail_id);
      const step = await this.stepOf(tx, trail, input.step_id);
      const mentions = findMentions(text, await comments.mentionCandidates(tx, trail.account_id, trail.scope_id, mentionLeads(text)));
      const id = randomUUID();
      const createdAt = nextModified(await comments.lastCommentAt(tx, trail.id));
      await comments.insertComment(tx, {
        id,
        account_id: trail.account_id,
        trail_id: trail.id,
        step_id: step.id,
        principal_id: actor.principalId,
        body: text,
        mentions: JSON.stringify(mentions),
        created_at: createdAt,
      });
      const [view] = await viewsOf(tx, trail.account_id, [
        { id, step_id: step.id, principal_id: actor.principalId, body: text, mentions: JSON.stringify(mentions), created_at: createdAt, ...(await this.author(tx, actor)) },
      ]);
      if (!view) throw new Error('the comment just kept has no view');
      if (mentions.length > 0) {
        const stepTitle = step.bit_title ?? (await stepBits(tx, [step.id]))[0]?.title ?? '';
        const trailTitle = trail.title ?? (await findFlow(tx, trail.flow_id))?.title ?? '';
        await notify(tx, trail.account_id, { principalIds: mentions }, {
          kind: 'mentioned',
          trailId: trail.id,
          stepId: step.id,
          actorId: actor.principalId,
          summary: { trail_title: trailTitle, step_title: stepTitle, actor_name: view.author.name, excerpt: excerptOf(text), comment_id: id },
        });
      }
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'trail', resourceId: trail.id, scopeId: trail.scope_id, summary: { step_id: step.id, comment_id: id } });
      return view;
    });
  }

  private async author(q: Q, actor: Actor): Promise<Pick<comments.CommentRow, 'author_name' | 'author_kind'>> {
    const row = await q.selectFrom('principals').select(['name', 'kind']).where('id', '=', actor.principalId).where('account_id', '=', actor.accountId).executeTakeFirst();
    return { author_name: row?.name ?? null, author_kind: row?.kind ?? null };
  }

  /** The comments list: a trail's comments (or one step's), oldest first, a bounded page. */
  async list(actor: Actor, input: CommentListInput): Promise<CommentPage> {
    const db = this.store.db;
    const trail = await findTrail(db, input.trail_id, actor);
    if (!trail) throw trailNotFound(input.trail_id);
    if (input.step_id !== undefined) await this.stepOf(db, trail, input.step_id);
    const page = await comments.commentPage(db, trail.id, input.step_id, { limit: input.limit ?? LIMITS.defaultPageSize, cursor: input.cursor });
    return {
      comments: await viewsOf(db, trail.account_id, page.rows),
      total: await comments.countComments(db, trail.id, input.step_id),
      next_cursor: page.next_cursor,
    };
  }

  /** get_trail's view with its comments: the current step's newest, and each history entry's count. */
  async onTrail(actor: Actor, view: TrailView): Promise<CommentedTrailView> {
    const db = this.store.db;
    const counts = await comments.countsByStep(db, view.trail_id);
    const current = view.current_step;
    return {
      ...view,
      current_step: current && { ...current, comments: await stepComments(db, actor.accountId, view.trail_id, current.step_id, counts.get(current.step_id) ?? 0) },
      history: view.history.map((entry) => ({ ...entry, comment_count: counts.get(entry.step_id) ?? 0 })),
    };
  }
}
