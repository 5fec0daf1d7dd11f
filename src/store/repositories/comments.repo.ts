/**
 * Comments on trail steps (migration 017's trail_comments). Every read names the trail, which the service has
 * found visible to the caller first: a comment is seen only through its trail. Read oldest first, on the
 * (trail_id, created_at, id) index; created_at is kept strictly increasing per trail (comments.service.ts).
 */
import { sql, type Insertable, type SqlBool } from 'kysely';
import { lowerText } from '../dialects/dialect.js';
import type { TrailCommentTable } from '../schema.js';
import type { Db, Tx } from '../store.js';
import { decodeCursor, encodeCursor } from './paging.js';

type Q = Db | Tx;

export async function insertComment(q: Tx, row: Insertable<TrailCommentTable>): Promise<void> {
  await q.insertInto('trail_comments').values(row).execute();
}

/** When the trail's newest comment was made, if it has one. */
export async function lastCommentAt(q: Q, trailId: string): Promise<string | undefined> {
  const row = await q.selectFrom('trail_comments').select('created_at').where('trail_id', '=', trailId).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  return row?.created_at;
}

/** A comment with its author's name and kind (an author is a principal of the trail's account). */
function withAuthor(q: Q) {
  return q
    .selectFrom('trail_comments')
    .leftJoin('principals', (join) => join.onRef('principals.id', '=', 'trail_comments.principal_id').onRef('principals.account_id', '=', 'trail_comments.account_id'))
    .select(['trail_comments.id', 'trail_comments.step_id', 'trail_comments.principal_id', 'trail_comments.body', 'trail_comments.mentions', 'trail_comments.created_at', 'principals.name as author_name', 'principals.kind as author_kind']);
}
export type CommentRow = Awaited<ReturnType<ReturnType<typeof withAuthor>['execute']>>[number];

/** The step's newest `limit` comments, oldest of them first. */
export async function newestOfStep(q: Q, trailId: string, stepId: string, limit: number): Promise<CommentRow[]> {
  const rows = await withAuthor(q)
    .where('trail_comments.trail_id', '=', trailId)
    .where('trail_comments.step_id', '=', stepId)
    .orderBy('trail_comments.created_at', 'desc')
    .orderBy('trail_comments.id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}

/** How many comments each step of the trail has (steps without any are absent). */
export async function countsByStep(q: Q, trailId: string): Promise<Map<string, number>> {
  const rows = await q.selectFrom('trail_comments').select(['step_id', (eb) => eb.fn.countAll<number | string | bigint>().as('n')]).where('trail_id', '=', trailId).groupBy('step_id').execute();
  return new Map(rows.map((r) => [r.step_id, Number(r.n)]));
}

/** A page of the trail's comments (or one step's), oldest first, after `cursor` (a next_cursor of this list). */
export async function commentPage(q: Q, trailId: string, stepId: string | undefined, page: { limit: number; cursor?: string }): Promise<{ rows: CommentRow[]; next_cursor: string | null }> {
  let query = withAuthor(q).where('trail_comments.trail_id', '=', trailId);
  if (stepId !== undefined) query = query.where('trail_comments.step_id', '=', stepId);
  if (page.cursor !== undefined) {
    const after = decodeCursor(page.cursor);
    query = query.where(sql<SqlBool>`(trail_comments.created_at, trail_comments.id) > (${after.updated_at}, ${after.id})`);
  }
  const rows = await query.orderBy('trail_comments.created_at').orderBy('trail_comments.id').limit(page.limit + 1).execute();
  const last = rows.length > page.limit ? rows[page.limit - 1] : undefined;
  return { rows: rows.slice(0, page.limit), next_cursor: last ? encodeCursor({ updated_at: last.created_at, id: last.id }) : null };
}

export async function countComments(q: Q, trailId: string, stepId: string | undefined): Promise<number> {
  let query = q.selectFrom('trail_comments').select((eb) => eb.fn.countAll<number | string | bigint>().as('n')).where('trail_id', '=', trailId);
  if (stepId !== undefined) query = query.where('step_id', '=', stepId);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** `text%` for LIKE … ESCAPE '\', with the text's own wildcards taken literally. */
function prefixPattern(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The people of the account who could be mentioned by these `@` words (mentions.ts: a name starting with a lead,
 * or an email), among those who can see a trail of `scopeId` (visibility.ts: everyone for an account-level trail,
 * else account-level people and that scope's). Anyone else
 * is never read, so a mention of them resolves to no one and says nothing of them.
 */
export async function mentionCandidates(q: Q, accountId: string, scopeId: string | null, words: { leads: string[]; emails: string[] }) {
  if (words.leads.length === 0 && words.emails.length === 0) return [];
  return q
    .selectFrom('principals')
    .select(['id', 'name', 'email'])
    .where('account_id', '=', accountId)
    .where('kind', '=', 'person')
    // An account-level trail is seen by every person of the account; a scope's by account-level people and its own.
    .where((eb) => (scopeId === null ? sql<SqlBool>`1 = 1` : eb.or([eb('scope_id', 'is', null), eb('scope_id', '=', scopeId)])))
    .where((eb) =>
      eb.or([
        ...words.leads.map((lead) => sql<SqlBool>`${lowerText(sql.ref('name'))} like ${prefixPattern(lead)} escape '\\'`),
        ...(words.emails.length > 0 ? [eb('email', 'in', words.emails)] : []),
      ]),
    )
    .orderBy('id')
    .execute();
}

/** The names of these principals of the account, by id. */
export async function namesOf(q: Q, accountId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await q.selectFrom('principals').select(['id', 'name']).where('account_id', '=', accountId).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
