/**
 * The Trails page's operations (issue 28) through the real HTTP app on each engine, as the web app calls them: a
 * person signed in by a link. Six trails of two flows, their times set to known instants, so that the order, the
 * date filters and the report's figures are exact: every filter, paging, text search, the CSV (header, escaping,
 * formula prefix), the report, and another account seeing none of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness, type Principal } from '../../../test/harness.js';
import { signedIn, startWebServer, type Browser, type WebServer } from '../../../test/web-client.js';
import type { FlowReport, TrailSearchPage } from '../../services/trails/trail-search-shapes.js';

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 9, 0) + minutes * 60_000).toISOString();

describe.each(ENGINES)('the Trails page operations on %s', (engine) => {
  let h: Harness;
  let web: WebServer;
  let person: Principal;
  let browser: Browser;
  let stranger: Browser;
  let hiring: string;
  let orders: string;
  const t: Record<string, string> = {};
  const bits: Record<string, string> = {};

  const search = async (query: string) => browser.ok(browser.get<TrailSearchPage>(`/trails/search${query}`));
  const titles = (page: TrailSearchPage) => page.trails.map((x) => x.trail_title ?? x.trail_id);

  beforeAll(async () => {
    h = await startHarness(engine);
    web = await startWebServer(h.services);
    person = await h.principal({ kind: 'person', permission: 'view', capabilities: ['read', 'run'] });
    const db = h.store.store.db;
    await db.updateTable('principals').set({ name: 'Pat Person' }).where('id', '=', person.principalId).execute();
    await db.updateTable('principals').set({ name: '@owner' }).where('id', '=', h.owner.principalId).execute();
    browser = await signedIn(h.services, web.origin, person.principalId);
    const otherAccount = await h.services.auth.createAccount('other');
    const other = await h.principal({ accountId: otherAccount, kind: 'person', permission: 'view', capabilities: ['read', 'run'] });
    stranger = await signedIn(h.services, web.origin, other.principalId);

    const add = async (title: string) => (await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: title, bit_body: `${title}.` })).bit_id;
    bits.intake = await add('Intake');
    bits.review = await add('Review');
    bits.ship = await add('Ship');
    await h.owner.client.ok('connect_bits', { source_bit_id: bits.intake, target_bit_id: bits.review });
    hiring = (await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Hiring', start_bit_id: bits.intake })).flow_id;
    orders = (await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Orders', start_bit_id: bits.ship })).flow_id;

    const start = async (flow: string, title: string | undefined, context: Record<string, unknown>) =>
      (await h.owner.client.ok<{ trail_id: string }>('start_trail', { flow_id: flow, ...(title ? { trail_title: title } : {}), trail_context: context })).trail_id;
    const advance = (trail: string) => h.owner.client.ok('advance_trail', { trail_id: trail });
    t.ann = await start(hiring, '=SUM(A1:A9)', { candidate: 'Zoë Ng', note: 'said "yes", then "no"' });
    await advance(t.ann);
    await advance(t.ann); // Review leads nowhere: completed
    t.bo = await start(hiring, 'Bo, the "second"', { candidate: 'Bo' });
    await advance(t.bo); // running at Review
    t.cy = await start(hiring, 'Cy', { candidate: 'Cy' });
    await h.owner.client.ok('cancel_trail', { trail_id: t.cy, reason: 'withdrew' });
    t.di = (await browser.ok(browser.post<{ trail_id: string }>('/trails', { flow_id: hiring, trail_title: 'Di', trail_context: { candidate: 'Di' } }))).trail_id;
    await h.owner.client.ok('transfer_step', { trail_id: t.di, reason: 'a person decides' }); // waiting for a person
    t.ed = await start(hiring, 'Ed', { candidate: 'Ed', level: 3 });
    await advance(t.ed);
    await advance(t.ed);
    t.po = await start(orders, undefined, { order: 'PO-77' });

    // Known times: the trails started an hour apart from 10:00 (Ann first, the order last) and were last changed in
    // the reverse order (Ann last).
    const order = ['po', 'ed', 'di', 'cy', 'bo', 'ann'];
    for (const [i, key] of order.entries()) {
      await db.updateTable('trails').set({ created_at: at(60 * (order.length - i)), updated_at: at(1000 + i) }).where('id', '=', t[key]).execute();
    }
    // Seconds spent per step: Intake 60, 120, 30 (cancelled), 240; Review 300, 100; Di's and Bo's current steps open.
    const spent: Array<[string, number, number | null]> = [
      ['ann', 1, 60], ['ann', 2, 300], ['bo', 1, 120], ['bo', 2, null], ['cy', 1, 30], ['di', 1, null], ['ed', 1, 240], ['ed', 2, 100], ['po', 1, null],
    ];
    for (const [key, seq, seconds] of spent) {
      await db
        .updateTable('trail_steps')
        .set({ entered_at: at(seq * 100), left_at: seconds === null ? null : new Date(Date.parse(at(seq * 100)) + seconds * 1000).toISOString() })
        .where('trail_id', '=', t[key])
        .where('seq', '=', seq)
        .execute();
    }
  });
  afterAll(async () => {
    await web.close();
    await h.close();
  });

  it('lists every trail the person may see, newest change first, with flow, status, current step and who started it', async () => {
    const page = await search('');
    expect(titles(page)).toEqual(['=SUM(A1:A9)', 'Bo, the "second"', 'Cy', 'Di', 'Ed', t.po]);
    expect(page).toMatchObject({ next_cursor: null, searched_back_to: null, examined_per_page: 2000 });
    expect(page.trails[1]).toEqual({
      trail_id: t.bo,
      flow_id: hiring,
      flow_title: 'Hiring',
      trail_title: 'Bo, the "second"',
      status: 'running',
      current_bit_id: bits.review,
      current_bit_title: 'Review',
      started_by: h.owner.principalId,
      started_date_time_utc: at(120),
      last_modified_date_time_utc: at(1004),
      due_date_time_utc: null,
      step_due_date_time_utc: null,
      overdue: false,
      archived_date_time_utc: null,
    });
    expect(page.trails[0]).toMatchObject({ status: 'completed', current_bit_id: null });
    expect(page.trails[3]).toMatchObject({ status: 'waiting_for_person', started_by: person.principalId, current_bit_title: 'Intake' });
  });

  it('filters by flow, statuses, waiting for me, who started it and when, each alone and together', async () => {
    expect(titles(await search(`?flow_id=${orders}`))).toEqual([t.po]);
    expect(titles(await search('?status=completed&status=cancelled'))).toEqual(['=SUM(A1:A9)', 'Cy', 'Ed']);
    expect(titles(await search(`?flow_id=${hiring}&status=running`))).toEqual(['Bo, the "second"']);
    // Di waits for a person, given to no one in particular; the rest wait for no one or are over.
    expect(titles(await search('?waiting_for_me=true'))).toEqual(['Di']);
    expect(titles(await search(`?started_by_id=${person.principalId}`))).toEqual(['Di']);
    expect(titles(await search(`?started_by_id=${h.owner.principalId}&status=completed`))).toEqual(['=SUM(A1:A9)', 'Ed']);
    // Started at or after 10:00 and before 13:00: Ann (10:00), Bo (11:00), Cy (12:00); Di started at 13:00.
    expect(titles(await search(`?started_since=${at(60)}&started_until=${at(240)}`))).toEqual(['=SUM(A1:A9)', 'Bo, the "second"', 'Cy']);
    // A time with its zone: from 11:00 UTC on.
    expect(titles(await search('?started_since=2026-11-01T12:00:00%2B01:00'))).toEqual(['Bo, the "second"', 'Cy', 'Di', 'Ed', t.po]);
    const none = await search(`?flow_id=${orders}&status=cancelled`);
    expect(none).toMatchObject({ trails: [], next_cursor: null });
  });

  it('finds text in the title or a value of the context, in any case, never in a key', async () => {
    expect(titles(await search(`?q=${encodeURIComponent('ZOË')}`))).toEqual(['=SUM(A1:A9)']);
    expect(titles(await search(`?q=${encodeURIComponent('"yes"')}`))).toEqual(['=SUM(A1:A9)']);
    expect(titles(await search('?q=po-77'))).toEqual([t.po]);
    expect(titles(await search('?q=second'))).toEqual(['Bo, the "second"']);
    expect(titles(await search('?q=3'))).toEqual(['Ed']);
    expect(titles(await search('?q=candidate'))).toEqual([]);
    // A LIKE wildcard is a character like any other.
    expect(titles(await search(`?q=${encodeURIComponent('%')}`))).toEqual([]);
  });

  it('pages with a cursor, each trail once, and refuses a cursor it did not hand out', async () => {
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const page: TrailSearchPage = await search(`?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...titles(page));
      cursor = page.next_cursor;
      pages++;
    }
    expect(pages).toBe(2);
    expect(seen).toEqual(['=SUM(A1:A9)', 'Bo, the "second"', 'Cy', 'Di', 'Ed', t.po]);
    const bad = await browser.get('/trails/search?cursor=nonsense');
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [expect.objectContaining({ path: 'cursor' })] } });
    const badTime = await browser.get('/trails/search?started_since=yesterday');
    expect(badTime.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [expect.objectContaining({ path: 'started_since' })] } });
  });

  it('downloads the same trails as CSV: a header row, every cell escaped, a formula never left to run', async () => {
    const res = await browser.fetch(`/api/v1/trails/export?flow_id=${hiring}&status=completed&status=running`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename=trails.csv');
    expect(res.headers.get('link')).toBeNull();
    expect(await res.text()).toBe(
      [
        'Trail,Title,Flow,Status,Current step,Started by,Started (UTC),Last change (UTC)',
        `${t.ann},'=SUM(A1:A9),Hiring,Completed,,'@owner,${at(60)},${at(1005)}`,
        `${t.bo},"Bo, the ""second""",Hiring,Running,Review,'@owner,${at(120)},${at(1004)}`,
        `${t.ed},Ed,Hiring,Completed,,'@owner,${at(300)},${at(1001)}`,
        '',
      ].join('\r\n'),
    );
    const refused = await browser.fetch(`/api/v1/trails/export?flow_id=${crypto.randomUUID()}`);
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('FLOW_NOT_FOUND');
  });

  it("reports a flow's trails by status and the median and 90th percentile of the time spent in each step", async () => {
    const report = await browser.ok(browser.get<FlowReport>(`/flows/${hiring}/report`));
    expect(report).toEqual({
      flow_id: hiring,
      flow_title: 'Hiring',
      trails_by_status: { running: 1, waiting_for_person: 1, completed: 2, cancelled: 1 },
      counted_trails: 5,
      counted_trails_limit: 10_000,
      all_counted: true,
      step_times: [
        // 30, 60, 120, 240 s: the median between 60 and 120; the 90th percentile 0.7 of the way from 120 to 240.
        { bit_id: bits.intake, bit_title: 'Intake', steps: 4, median_ms: 90_000, p90_ms: 204_000 },
        // 100, 300 s.
        { bit_id: bits.review, bit_title: 'Review', steps: 2, median_ms: 200_000, p90_ms: 280_000 },
      ],
      window: {
        trails_examined: 5,
        trails_limit: 1000,
        steps_limit: 20_000,
        steps_per_bit_limit: 1000,
        description: "Time spent is figured from the steps left in the flow's 5 most recently changed trails (at most 1,000), the most recent 1,000 steps of each bit; a step still under way is not counted.",
      },
    });
    const empty = await browser.ok(browser.get<FlowReport>(`/flows/${orders}/report`));
    expect(empty).toMatchObject({ trails_by_status: { running: 1, waiting_for_person: 0, completed: 0, cancelled: 0 }, counted_trails: 1, all_counted: true, step_times: [] });
  });

  it("shows another account's person none of it: no trail, and the flow is not found", async () => {
    expect(await stranger.ok(stranger.get<TrailSearchPage>('/trails/search'))).toMatchObject({ trails: [], next_cursor: null });
    expect(await stranger.ok(stranger.get<TrailSearchPage>(`/trails/search?started_by_id=${person.principalId}&q=Di`))).toMatchObject({ trails: [] });
    for (const path of [`/trails/search?flow_id=${hiring}`, `/flows/${hiring}/report`]) {
      const answer = await stranger.get(path);
      expect(answer.status).toBe(404);
      expect(answer.body.error?.code).toBe('FLOW_NOT_FOUND');
    }
    const csv = await stranger.fetch('/api/v1/trails/export');
    expect(await csv.text()).toBe('Trail,Title,Flow,Status,Current step,Started by,Started (UTC),Last change (UTC)\r\n');
  });
});
