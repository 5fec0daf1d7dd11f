/**
 * The inbox: the steps waiting for me (issue 27: mine, my groups', and for an Admin everyone's, each with its count),
 * newest first or soonest due first, filtered by flow, status and overdue, a page at a time.
 */
import { useEffect, useState } from 'preact/hooks';
import { flows as listFlows, inbox, type FlowView, type InboxItem, type InboxPage as Page } from '../api.js';
import { when } from '../components/loaded.js';
import { useLive } from '../live.js';
import { href, navigate, type Params } from '../router.js';
import { TRAIL_STATUS_WORDS } from '../../src/services/trails/status-words.js';

const PAGE = 20;
const REASONS: Record<InboxItem['reasons'][number], string> = {
  started_by_me: 'Started by you',
  transferred: 'Handed to a person',
  human_required: 'Needs a person',
  assigned_to_me: 'Assigned to you',
  my_group: 'Your group',
};

type View = 'mine' | 'groups' | 'everyone';
const VIEWS: Array<{ view: View; label: string }> = [
  { view: 'mine', label: 'Mine' },
  { view: 'groups', label: 'My groups' },
  { view: 'everyone', label: 'Everyone' },
];

function assigneeText(a: NonNullable<InboxItem['assignee']>): string {
  if (a.name && a.group_name) return `${a.name} has it (group ${a.group_name})`;
  return a.name ? `For ${a.name}` : `For the group ${a.group_name ?? ''}, not taken yet`;
}

function Item({ item }: { item: InboxItem }) {
  return (
    <li class="inbox-item">
      <a href={href(`/trails/${encodeURIComponent(item.trail_id)}/step`)} class="item-title">
        {item.bit_title}
      </a>
      <span class="item-trail">
        {item.trail_title ?? 'Untitled trail'} · {item.flow_title}
      </span>
      <span class="badges">
        <span class={`badge status-${item.status}`}>{item.status === 'waiting_for_person' ? 'Waiting for a person' : 'Running'}</span>
        {item.reasons.map((r) => (
          <span key={r} class="badge">
            {REASONS[r]}
          </span>
        ))}
      </span>
      {item.assignee && <span class="item-assignee">{assigneeText(item.assignee)}</span>}
      {item.transfer && <span class="item-reason">Reason: {item.transfer.reason}</span>}
      <span class="muted">
        Since {when(item.entered_date_time_utc)}
        {item.due_date_time_utc && <> · due {when(item.due_date_time_utc)}</>}
        {item.overdue && (
          <>
            {' '}
            <span class="badge overdue">Overdue</span>
          </>
        )}
      </span>
    </li>
  );
}

export function InboxPage({ params }: { params: Params }) {
  const flowId = params['?flow'] ?? '';
  const status = params['?status'] ?? '';
  const view = (['groups', 'everyone'].includes(params['?view'] ?? '') ? params['?view'] : 'mine') as View;
  const sort = params['?sort'] === 'due' ? 'due' : 'updated';
  const overdue = params['?overdue'] === '1';
  const query = { flow_id: flowId || undefined, status: status || undefined, view, sort: sort as 'due' | 'updated', overdue: overdue || undefined, limit: PAGE };
  const [page, setPage] = useState<Page | null>(null);
  const [flows, setFlows] = useState<FlowView[]>([]);
  const [failed, setFailed] = useState<string | null>(null);
  const [more, setMore] = useState(false);

  useEffect(() => {
    let live = true;
    setPage(null);
    setFailed(null);
    inbox(query).then(
      (p) => live && setPage(p),
      (e: Error) => live && setFailed(e.message),
    );
    return () => {
      live = false;
    };
  }, [flowId, status, view, sort, overdue]);
  // The first time the list is on screen (effects run after the render is painted): the browser tests read it.
  useEffect(() => {
    if (page && performance.getEntriesByName('inbox-rendered').length === 0) performance.mark('inbox-rendered');
  }, [page]);
  useEffect(() => {
    listFlows().then((f) => setFlows(f.flows), () => setFlows([]));
  }, []);
  // A trail I can see changed (live updates, issue 27): the first page again, in place, without a reload.
  useLive('inbox', () => void inbox(query).then(setPage, () => undefined));

  const address = (next: { flow?: string; status?: string; view?: View; sort?: string; overdue?: boolean }) => {
    const q = new URLSearchParams();
    const f = next.flow ?? flowId;
    const s = next.status ?? status;
    const v = next.view ?? view;
    const o = next.sort ?? sort;
    if (f) q.set('flow', f);
    if (s) q.set('status', s);
    if (v !== 'mine') q.set('view', v);
    if (o === 'due') q.set('sort', 'due');
    if (next.overdue ?? overdue) q.set('overdue', '1');
    const text = q.toString();
    return text ? `/?${text}` : '/';
  };
  const filter = (next: { flow?: string; status?: string; sort?: string; overdue?: boolean }) => navigate(address(next));
  const loadMore = async () => {
    if (!page?.next_cursor) return;
    setMore(true);
    try {
      const next = await inbox({ ...query, cursor: page.next_cursor });
      setPage({ ...next, items: [...page.items, ...next.items] });
    } finally {
      setMore(false);
    }
  };

  return (
    <>
      <h1>Inbox</h1>
      <nav class="views" aria-label="Inbox views">
        <ul>
          {VIEWS.filter((v) => v.view !== 'everyone' || (page?.counts.everyone ?? null) !== null || view === 'everyone').map((v) => (
            <li key={v.view}>
              <a href={href(address({ view: v.view }))} aria-current={v.view === view ? 'page' : undefined}>
                {v.label}
                {page && <span class="count"> ({v.view === 'mine' ? page.counts.mine : v.view === 'groups' ? page.counts.groups : (page.counts.everyone ?? 0)})</span>}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter the inbox">
        <div class="field inline">
          <label for="filter-flow">Flow</label>
          <select id="filter-flow" value={flowId} onChange={(e) => filter({ flow: (e.currentTarget as HTMLSelectElement).value })}>
            <option value="">All flows</option>
            {flows.map((f) => (
              <option key={f.flow_id} value={f.flow_id}>
                {f.flow_title}
              </option>
            ))}
          </select>
        </div>
        <div class="field inline">
          <label for="filter-status">Status</label>
          <select id="filter-status" value={status} onChange={(e) => filter({ status: (e.currentTarget as HTMLSelectElement).value })}>
            <option value="">Any status</option>
            {(['running', 'waiting_for_person'] as const).map((s) => (
              <option value={s}>{TRAIL_STATUS_WORDS[s]}</option>
            ))}
          </select>
        </div>
        <div class="field inline">
          <label for="sort">Order</label>
          <select id="sort" value={sort} onChange={(e) => filter({ sort: (e.currentTarget as HTMLSelectElement).value })}>
            <option value="updated">Newest change first</option>
            <option value="due">Soonest due first</option>
          </select>
        </div>
        <div class="field inline">
          <label>
            <input type="checkbox" checked={overdue} onChange={(e) => filter({ overdue: (e.currentTarget as HTMLInputElement).checked })} /> Only overdue
          </label>
        </div>
      </form>
      {failed && <p role="alert" class="error-summary">{failed}</p>}
      {!page && !failed && <p class="loading">Loading…</p>}
      {page && (
        <>
          <p class="counts" role="status">
            <strong>{page.counts.total}</strong> waiting
            {view === 'mine' && (
              <>
                {' '}
                · {page.counts.assigned_to_me} assigned to you · {page.counts.started_by_me} started by you · {page.counts.transferred} handed to a person · {page.counts.human_required} need a person
              </>
            )}
          </p>
          {page.items.length === 0 ? (
            <p class="empty">
              Nothing is waiting for you. <a href={href('/flows')}>Start a trail</a>.
            </p>
          ) : (
            <ul class="inbox" aria-label="Steps waiting for you">
              {page.items.map((item) => (
                <Item key={item.trail_id} item={item} />
              ))}
            </ul>
          )}
          {page.next_cursor && (
            <button type="button" onClick={() => void loadMore()} disabled={more}>
              Show more
            </button>
          )}
        </>
      )}
    </>
  );
}
