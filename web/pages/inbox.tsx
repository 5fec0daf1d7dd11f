/** The inbox: the steps waiting for me, newest first, filtered by flow and status, a page at a time. */
import { useEffect, useState } from 'preact/hooks';
import { flows as listFlows, inbox, type FlowView, type InboxItem, type InboxPage as Page } from '../api.js';
import { when } from '../components/loaded.js';
import { useLive } from '../live.js';
import { href, navigate, type Params } from '../router.js';

const PAGE = 20;
const REASONS: Record<InboxItem['reasons'][number], string> = {
  started_by_me: 'Started by you',
  transferred: 'Handed to a person',
  human_required: 'Needs a person',
};

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
      {item.transfer && <span class="item-reason">Reason: {item.transfer.reason}</span>}
      <span class="muted">Since {when(item.entered_date_time_utc)}</span>
    </li>
  );
}

export function InboxPage({ params }: { params: Params }) {
  const flowId = params['?flow'] ?? '';
  const status = params['?status'] ?? '';
  const [page, setPage] = useState<Page | null>(null);
  const [flows, setFlows] = useState<FlowView[]>([]);
  const [failed, setFailed] = useState<string | null>(null);
  const [more, setMore] = useState(false);

  useEffect(() => {
    let live = true;
    setPage(null);
    inbox({ flow_id: flowId || undefined, status: status || undefined, limit: PAGE }).then(
      (p) => live && setPage(p),
      (e: Error) => live && setFailed(e.message),
    );
    return () => {
      live = false;
    };
  }, [flowId, status]);
  // The first time the list is on screen (effects run after the render is painted): the browser tests read it.
  useEffect(() => {
    if (page && performance.getEntriesByName('inbox-rendered').length === 0) performance.mark('inbox-rendered');
  }, [page]);
  useEffect(() => {
    listFlows().then((f) => setFlows(f.flows), () => setFlows([]));
  }, []);
  // A trail I can see changed (live updates, issue 27): the first page again, in place, without a reload.
  useLive('inbox', () => void inbox({ flow_id: flowId || undefined, status: status || undefined, limit: PAGE }).then(setPage, () => undefined));

  const filter = (next: { flow?: string; status?: string }) => {
    const q = new URLSearchParams();
    const f = next.flow ?? flowId;
    const s = next.status ?? status;
    if (f) q.set('flow', f);
    if (s) q.set('status', s);
    const text = q.toString();
    navigate(text ? `/?${text}` : '/');
  };
  const loadMore = async () => {
    if (!page?.next_cursor) return;
    setMore(true);
    try {
      const next = await inbox({ flow_id: flowId || undefined, status: status || undefined, limit: PAGE, cursor: page.next_cursor });
      setPage({ ...next, items: [...page.items, ...next.items] });
    } finally {
      setMore(false);
    }
  };

  return (
    <>
      <h1>Inbox</h1>
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
            <option value="running">Running</option>
            <option value="waiting_for_person">Waiting for a person</option>
          </select>
        </div>
      </form>
      {failed && <p role="alert" class="error-summary">{failed}</p>}
      {!page && !failed && <p class="loading">Loading…</p>}
      {page && (
        <>
          <p class="counts" role="status">
            <strong>{page.counts.total}</strong> waiting · {page.counts.started_by_me} started by you · {page.counts.transferred} handed to a person ·{' '}
            {page.counts.human_required} need a person
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
