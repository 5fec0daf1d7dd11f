/**
 * Talking on a step (issue 27): comment_on_step through the SDK client and the REST door, the comments list,
 * get_trail's comments, mentions told to exactly the people who can see the trail, and the text's bounds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { addTestBit, connectTestBits } from '../../../test/graph-fixtures.js';
import { startHarness, type Harness, type Principal } from '../../../test/harness.js';
import { textArea } from '../../../test/trail-fixtures.js';
import { signedIn, startWebServer, type WebServer } from '../../../test/web-client.js';
import { LIMITS } from '../../limits/index.js';
import type { CommentPage, CommentView } from '../../services/trails/comment-shapes.js';
import type { CommentedTrailView } from '../../services/trails/commented-trail.js';
import type { StepPayload } from '../../services/trails/shapes.js';

/** What comment_on_step answers: whom its mentions named. */
type Answer = Pick<CommentView, 'mentions'>;

describe.each(ENGINES)('comments on trail steps on %s', (engine) => {
  let h: Harness;
  let web: WebServer;
  let scope: string;
  let hidden: string;
  let flowId: string;
  /** People of the account, by who they are in these tests. */
  let annLee: Principal;
  let ann: Principal;
  let carol: Principal;
  let dave: Principal;
  let robo: Principal;
  let foreigner: Principal;

  const db = () => h.store.store.db;
  async function person(name: string, email: string | null, options: { scopeId?: string; accountId?: string; kind?: 'agent' | 'person' } = {}): Promise<Principal> {
    const p = await h.principal({ kind: options.kind ?? 'person', scopeId: options.scopeId ?? null, accountId: options.accountId, permission: 'edit', capabilities: ['run', 'read'] });
    await db().updateTable('principals').set({ name, email }).where('id', '=', p.principalId).execute();
    return p;
  }
  const notices = async (trailId: string) =>
    (await db().selectFrom('notifications').select(['principal_id', 'kind', 'step_id', 'actor_id', 'summary']).where('trail_id', '=', trailId).orderBy('id').execute()).map((n) => ({
      ...n,
      summary: JSON.parse(n.summary) as Record<string, unknown>,
    }));
  const start = async () => h.owner.client.ok<CommentedTrailView>('start_trail', { flow_id: flowId, trail_title: 'Onboard Eve' });

  beforeAll(async () => {
    h = await startHarness(engine);
    web = await startWebServer(h.services);
    scope = await h.services.auth.createScope(h.accountId, 'support');
    hidden = await h.services.auth.createScope(h.accountId, 'finance');
    await db().updateTable('principals').set({ name: 'Owner Agent' }).where('id', '=', h.owner.principalId).execute();
    const first = await addTestBit(h, { title: 'Collect details', scopeId: scope, blocks: [textArea('notes')] });
    const second = await addTestBit(h, { title: 'Sign off', scopeId: scope });
    await connectTestBits(h, first.bit_id, second.bit_id);
    flowId = (await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Onboarding', start_bit_id: first.bit_id, scope_id: scope })).flow_id;
    annLee = await person('Ann Lee', 'ann.lee@example.com');
    ann = await person('Ann', null);
    carol = await person('Carol Diaz', 'carol@example.com', { scopeId: scope });
    dave = await person('Dave', 'dave@example.com', { scopeId: hidden });
    robo = await person('Robo', null, { kind: 'agent' });
    const other = await h.services.auth.createAccount('other');
    foreigner = await person('Ann Lee', 'ann.lee@other.example', { accountId: other });
  });
  afterAll(async () => {
    await web.close();
    await h.close();
  });

  it('keeps a comment on the current step, trimmed, and get_trail shows it with the step and counts it in the history', async () => {
    const trail = await start();
    const step = trail.current_step?.step_id as string;
    const answer = await h.owner.client.ok<Answer>('comment_on_step', { trail_id: trail.trail_id, text: '  Which laptop does Eve get?\n' });
    expect(answer).toEqual({ mentions: [] });
    const read = await h.owner.client.ok<CommentedTrailView>('get_trail', { trail_id: trail.trail_id });
    const comment = read.current_step?.comments.latest[0];
    expect(comment).toEqual({
      comment_id: expect.any(String),
      step_id: step,
      author: { principal_id: h.owner.principalId, name: 'Owner Agent', kind: 'agent' },
      text: 'Which laptop does Eve get?',
      mentions: [],
      created_date_time_utc: expect.any(String),
    });
    expect(read.current_step?.comments).toEqual({ total: 1, latest: [comment], more: null });
    expect(read.history.map((e) => e.comment_count)).toEqual([1]);
    // One event, naming the step and the comment, never the text.
    const events = await db().selectFrom('events').select('summary').where('resource_id', '=', trail.trail_id).where('operation', '=', 'comment_on_step').execute();
    expect(events.map((e) => JSON.parse(e.summary ?? 'null') as unknown)).toEqual([{ step_id: step, comment_id: comment?.comment_id }]);
    // The step form's payload carries them too (the web app and the MCP App show them with the step).
    const browser = await signedIn(h.services, web.origin, annLee.principalId);
    const payload = await browser.ok(browser.get<StepPayload>(`/trails/${trail.trail_id}/step`));
    expect(payload.comments).toEqual({ total: 1, latest: [comment], more: null });
  });

  it('comments on the step named, and on a finished trail without step_id on its last step; another step is STEP_NOT_FOUND', async () => {
    const trail = await start();
    const first = trail.current_step?.step_id as string;
    const moved = await h.owner.client.ok<CommentedTrailView>('advance_trail', { trail_id: trail.trail_id });
    const second = moved.current_step?.step_id as string;
    await carol.client.ok('comment_on_step', { trail_id: trail.trail_id, step_id: first, text: 'Details were late.' });
    await h.owner.client.ok('advance_trail', { trail_id: trail.trail_id });
    await h.owner.client.ok('comment_on_step', { trail_id: trail.trail_id, text: 'Done, thanks all.' });
    const read = await h.owner.client.ok<CommentedTrailView>('get_trail', { trail_id: trail.trail_id });
    expect([read.status, read.current_step, read.history.map((e) => e.comment_count)]).toEqual(['completed', null, [1, 1]]);
    const browser = await signedIn(h.services, web.origin, carol.principalId);
    const listed = await browser.ok(browser.get<CommentPage>(`/trails/${trail.trail_id}/comments`));
    expect(listed.comments.map((c) => [c.step_id, c.text, c.author.name])).toEqual([
      [first, 'Details were late.', 'Carol Diaz'],
      [second, 'Done, thanks all.', 'Owner Agent'],
    ]);

    const other = await start();
    for (const step_id of [other.current_step?.step_id as string, '00000000-0000-4000-8000-000000000000']) {
      const error = await h.owner.client.fail('comment_on_step', { trail_id: trail.trail_id, step_id, text: 'Here?' });
      expect([error.code, error.status, error.message]).toEqual(['STEP_NOT_FOUND', 404, `Trail ${trail.trail_id} has no step ${step_id}: get_trail lists its steps (history[].step_id); omit step_id for the current step.`]);
    }
  });

  it('refuses a blank comment and one over LIMITS.commentLength characters, and takes one of exactly that many', async () => {
    const trail = await start();
    const blank = await h.owner.client.fail('comment_on_step', { trail_id: trail.trail_id, text: ' \n\t ' });
    expect([blank.code, blank.details?.issues]).toEqual(['VALIDATION_ERROR', [{ path: 'text', message: 'must not be blank' }]]);
    const long = await h.owner.client.fail('comment_on_step', { trail_id: trail.trail_id, text: 'x'.repeat(LIMITS.commentLength + 1) });
    expect(long.code).toBe('VALIDATION_ERROR');
    expect(long.details?.issues).toEqual([expect.objectContaining({ path: 'text' })]);
    await h.owner.client.ok('comment_on_step', { trail_id: trail.trail_id, text: 'y'.repeat(LIMITS.commentLength) });
    const read = await h.owner.client.ok<CommentedTrailView>('get_trail', { trail_id: trail.trail_id });
    expect(read.current_step?.comments.total).toBe(1);
    expect(read.current_step?.comments.latest[0]?.text).toHaveLength(LIMITS.commentLength);
  });

  it('keeps markup as the text written: a comment is plain text, never HTML', async () => {
    const trail = await start();
    const text = '<script>alert(1)</script> <b>bold</b> & "quotes"';
    await h.owner.client.ok('comment_on_step', { trail_id: trail.trail_id, text });
    const read = await h.owner.client.ok<CommentedTrailView>('get_trail', { trail_id: trail.trail_id });
    expect(read.current_step?.comments.latest.map((c) => c.text)).toEqual([text]);
    const row = await db().selectFrom('trail_comments').select('body').where('trail_id', '=', trail.trail_id).executeTakeFirstOrThrow();
    expect(row.body).toBe(text);
  });

  it('tells exactly the mentioned people who can see the trail, by the longest name or the email, and never the author', async () => {
    const trail = await start();
    const step = trail.current_step?.step_id as string;
    const text = '@Ann Lee and @ann, please check with @carol@example.com. @Dave and @Robo cannot help; @Owner Agent noted. ' + 'More words. '.repeat(20);
    const comment = await h.owner.client.ok<Answer>('comment_on_step', { trail_id: trail.trail_id, text });
    const commentId = (await db().selectFrom('trail_comments').select('id').where('trail_id', '=', trail.trail_id).executeTakeFirstOrThrow()).id;
    // Dave's scope cannot see the trail; Robo and the owner are agents; the other account's Ann Lee is not of this account.
    expect(comment.mentions).toEqual([
      { principal_id: annLee.principalId, name: 'Ann Lee' },
      { principal_id: ann.principalId, name: 'Ann' },
      { principal_id: carol.principalId, name: 'Carol Diaz' },
    ]);
    const told = await notices(trail.trail_id);
    expect(told.map((n) => n.principal_id).sort()).toEqual([annLee.principalId, ann.principalId, carol.principalId].sort());
    const excerpt = told[0]?.summary.excerpt as string;
    expect(excerpt.length).toBeLessThanOrEqual(LIMITS.mentionExcerptLength);
    expect(excerpt.endsWith('…')).toBe(true);
    for (const n of told) {
      expect(n).toMatchObject({ kind: 'mentioned', step_id: step, actor_id: h.owner.principalId });
      expect(n.summary).toEqual({ trail_title: 'Onboard Eve', step_title: 'Collect details', actor_name: 'Owner Agent', excerpt, comment_id: commentId });
    }
    expect(told.some((n) => n.principal_id === dave.principalId || n.principal_id === foreigner.principalId || n.principal_id === robo.principalId)).toBe(false);

    // A person mentioning themself is shown as mentioned, and told nothing.
    const own = await ann.client.ok<Answer>('comment_on_step', { trail_id: trail.trail_id, text: 'Noted, @Ann.' });
    expect(own.mentions).toEqual([{ principal_id: ann.principalId, name: 'Ann' }]);
    expect(await notices(trail.trail_id)).toHaveLength(3);
  });

  it('is not seen, nor written, by a principal who cannot see the trail: TRAIL_NOT_FOUND', async () => {
    const trail = await start();
    for (const caller of [dave, foreigner]) {
      const error = await caller.client.fail('comment_on_step', { trail_id: trail.trail_id, text: 'Hello' });
      expect([error.code, error.status]).toEqual(['TRAIL_NOT_FOUND', 404]);
    }
    const count = await db().selectFrom('trail_comments').select((eb) => eb.fn.countAll<number>().as('n')).where('trail_id', '=', trail.trail_id).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('lists a trail\'s comments oldest first in bounded pages over REST, and get_trail shows the newest LIMITS.commentsShown', async () => {
    const trail = await start();
    const total = LIMITS.commentsShown + 2;
    const browser = await signedIn(h.services, web.origin, carol.principalId);
    for (let i = 1; i <= total; i++) expect(await browser.ok(browser.post<Answer>(`/trails/${trail.trail_id}/comments`, { text: `Note ${i}` }))).toEqual({ mentions: [] });

    const step = trail.current_step?.step_id as string;
    const pages: CommentView[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `step_id=${step}&limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page: CommentPage = await browser.ok(browser.get<CommentPage>(`/trails/${trail.trail_id}/comments?${query}`));
      expect(page.total).toBe(total);
      expect(page.comments.length).toBeLessThanOrEqual(10);
      pages.push(...page.comments);
      cursor = page.next_cursor;
    } while (cursor);
    expect(pages.map((c) => [c.text, c.author.name])).toEqual(Array.from({ length: total }, (_, i) => [`Note ${i + 1}`, 'Carol Diaz']));
    const made = pages;

    const read = await h.owner.client.ok<CommentedTrailView>('get_trail', { trail_id: trail.trail_id });
    expect(read.current_step?.comments).toEqual({
      total,
      latest: made.slice(2),
      more: `2 earlier comments of this step: the trail's comments list (GET /api/v1/trails/${trail.trail_id}/comments?step_id=${step}) has every one, oldest first.`,
    });
    const bad = await browser.get(`/trails/${trail.trail_id}/comments?cursor=nonsense`);
    expect([bad.status, bad.body.error?.code]).toEqual([422, 'VALIDATION_ERROR']);
    const hiddenPerson = await signedIn(h.services, web.origin, dave.principalId);
    const unseen = await hiddenPerson.get(`/trails/${trail.trail_id}/comments`);
    expect([unseen.status, unseen.body.error?.code]).toEqual([404, 'TRAIL_NOT_FOUND']);
  });
});
