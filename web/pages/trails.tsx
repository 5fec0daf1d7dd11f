/**
 * Every trail a person may see (issue 28: "a completed or cancelled trail leaves the inbox and can be reached only by
 * its URL"), filtered by flow, status, waiting for me, who started it and when, and searched by its title and
 * context; the filters live in the address, so Back works and a link can be shared. With a flow chosen, its
 * report: trails by status, and how long each step takes.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import * as api from '../api.js';
import { TRAIL_STATUSES, type TrailStatus } from '../../src/store/enums.js';
import { TRAIL_STATUS_WORDS } from '../../src/services/trails/status-words.js';
import { LIMITS } from '../../src/limits/index.js';
import { refusalInWords } from '../components/change-words.js';
import { spanInWords, startOfDay } from '../components/days.js';
import { when } from '../components/loaded.js';
import { useMe } from '../me.js';
import { href, navigate, type Params } from '../router.js';

const PAGE = 25;

/** The filters as the address holds them: `#/trails?q=…&flow=…&status=running,completed&mine=1&by=…&from=…&to=…`. */
interface Filters {
  q: string;
  flow: string;
  status: string;
  mine: string;
  by: string;
  from: string;
  to: string;
}
const KEYS: Array<keyof Filters> = ['q', 'flow', 'status', 'mine', 'by', 'from', 'to'];

const filtersOf = (get: (key: string) => string | null | undefined): Filters =>
  Object.fromEntries(KEYS.map((k) => [k, get(k) ?? ''])) as unknown as Filters;

const statusesOf = (text: string): TrailStatus[] => text.split(',').filter((s): s is TrailStatus => (TRAIL_STATUSES as readonly string[]).includes(s));

/** The filters as the operations take them. */
function queryOf(f: Filters): Omit<api.TrailSearchQuery, 'cursor' | 'limit'> {
  const status = statusesOf(f.status);
  return {
    q: f.q || undefined,
    flow_id: f.flow || undefined,
    status: status.length > 0 ? status : undefined,
    waiting_for_me: f.mine === '1' ? true : undefined,
    started_by_id: f.by || undefined,
    started_since: startOfDay(f.from),
    started_until: startOfDay(f.to, 1),
  };
}

function Report({ flowId }: { flowId: string }) {
  const [report, setReport] = useState<api.FlowReport | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setReport(null);
    setFailed(null);
    api.flowReport(flowId).then(
      (r) => live && setReport(r),
      (e: unknown) => live && setFailed(refusalInWords(e)),
    );
    return () => {
      live = false;
    };
  }, [flowId]);
  if (failed) return <p class="error-summary">The report could not be read: {failed}</p>;
  if (!report) return <p class="loading">Loading the report…</p>;
  return (
    <section class="flow-report" aria-labelledby="report-title">
      <h2 id="report-title">Report: {report.flow_title}</h2>
      <div class="report-tables">
        <table>
          <caption>Trails by status{report.all_counted ? '' : ` (the ${report.counted_trails_limit.toLocaleString()} most recently changed)`}</caption>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Trails</th>
            </tr>
          </thead>
          <tbody>
            {TRAIL_STATUSES.map((s) => (
              <tr key={s}>
                <th scope="row">{TRAIL_STATUS_WORDS[s]}</th>
                <td class="number">{report.trails_by_status[s].toLocaleString()}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">{report.all_counted ? 'All' : 'Counted'}</th>
              <td class="number">{report.counted_trails.toLocaleString()}</td>
            </tr>
          </tbody>
        </table>
        {report.step_times.length === 0 ? (
          <p class="muted">No step of this flow has been finished yet, so there is no time to show.</p>
        ) : (
          <table>
            <caption>Time spent in each step</caption>
            <thead>
              <tr>
                <th scope="col">Step</th>
                <th scope="col">Steps counted</th>
                <th scope="col">Median</th>
                <th scope="col">90th percentile</th>
              </tr>
            </thead>
            <tbody>
              {report.step_times.map((t) => (
                <tr key={t.bit_id}>
                  <th scope="row">
                    <a href={href(`/bits/${t.bit_id}`)}>{t.bit_title ?? 'Untitled bit'}</a>
                  </th>
                  <td class="number">{t.steps.toLocaleString()}</td>
                  <td class="number">{spanInWords(t.median_ms)}</td>
                  <td class="number">{spanInWords(t.p90_ms)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <p class="muted">{report.window.description} 90 in 100 of these steps took no longer than the 90th percentile.</p>
    </section>
  );
}

function Row({ trail, names }: { trail: api.FoundTrail; names: ReadonlyMap<string, string> }) {
  const me = useMe();
  const starter = trail.started_by === me?.principal_id ? 'You' : (names.get(trail.started_by) ?? 'Someone you cannot see');
  return (
    <tr>
      <th scope="row" data-label="Trail">
        <a href={href(`/trails/${trail.trail_id}`)}>{trail.trail_title ?? `Untitled trail of ${trail.flow_title}`}</a>
      </th>
      <td data-label="Flow">{trail.flow_title}</td>
      <td data-label="Status">
        <span class={`badge status-${trail.status}`}>{TRAIL_STATUS_WORDS[trail.status]}</span>
      </td>
      <td data-label="Current step">{trail.current_bit_title ?? (trail.status === 'completed' || trail.status === 'cancelled' ? '—' : '')}</td>
      <td data-label="Started by">{starter}</td>
      <td data-label="Started">
        <time dateTime={trail.started_date_time_utc}>{when(trail.started_date_time_utc)}</time>
      </td>
      <td data-label="Last change">
        <time dateTime={trail.last_modified_date_time_utc}>{when(trail.last_modified_date_time_utc)}</time>
      </td>
    </tr>
  );
}

export function TrailsPage({ params }: { params: Params }) {
  const me = useMe();
  const filters = filtersOf((k) => params[`?${k}`]);
  const [text, setText] = useState(filters.q);
  const [trails, setTrails] = useState<api.FoundTrail[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [searchedBack, setSearchedBack] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [more, setMore] = useState(false);
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  const [flows, setFlows] = useState<api.FlowView[]>([]);
  const latestLoad = useRef(0);

  const load = async (after?: string) => {
    const number = ++latestLoad.current;
    const page = await api.searchTrails({ ...queryOf(filters), limit: PAGE, cursor: after });
    const unknown = [...new Set(page.trails.map((t) => t.started_by))].filter((id) => !names.has(id));
    const found = unknown.length > 0 ? await api.people(unknown).catch(() => ({ people: [] })) : { people: [] };
    if (number !== latestLoad.current) return;
    setNames((known) => new Map([...known, ...found.people.map((p) => [p.principal_id, p.kind === 'agent' ? `${p.name} (an agent)` : p.name] as const)]));
    setTrails((before) => (after && before ? [...before, ...page.trails] : page.trails));
    setCursor(page.next_cursor);
    setSearchedBack(page.searched_back_to);
  };

  useEffect(() => {
    setTrails(null);
    setFailed(null);
    setText(filters.q);
    load().catch((e: unknown) => setFailed(refusalInWords(e)));
  }, KEYS.map((k) => filters[k]));
  useEffect(() => {
    void api.flows().then((f) => setFlows(f.flows), () => setFlows([]));
  }, []);

  // The filters as the address holds them now, not as this render saw them (activity.tsx says why).
  const filter = (change: Partial<Filters>) => {
    const shown = new URLSearchParams(window.location.hash.split('?')[1] ?? '');
    const next = { ...filtersOf((k) => shown.get(k)), ...change };
    const q = new URLSearchParams();
    for (const k of KEYS) if (next[k]) q.set(k, next[k]);
    const query = q.toString();
    navigate(query ? `/trails?${query}` : '/trails');
  };
  const value = (e: Event) => (e.currentTarget as HTMLInputElement | HTMLSelectElement).value;
  const statuses = statusesOf(filters.status);
  const toggleStatus = (s: TrailStatus, on: boolean) => filter({ status: TRAIL_STATUSES.filter((x) => (x === s ? on : statuses.includes(x))).join(',') });
  const filtered = KEYS.some((k) => filters[k] !== '');
  const starters = [...names.entries()].filter(([id]) => id !== me?.principal_id).sort(([, a], [, b]) => a.localeCompare(b));
  const flowTitle = flows.find((f) => f.flow_id === filters.flow)?.flow_title;

  return (
    <>
      <h1>Trails</h1>
      <p>Every trail you may see, finished ones too, the most recently changed first.</p>
      <form
        class="filters"
        role="search"
        aria-label="Find trails"
        onSubmit={(e) => {
          e.preventDefault();
          filter({ q: text.trim() });
        }}
      >
        <div class="field full trails-text">
          <label for="trails-q">Title or context contains</label>
          <div class="inline-search">
            <input id="trails-q" type="search" value={text} maxLength={LIMITS.trailSearchQueryLength} onInput={(e) => setText(value(e))} />
            <button type="submit">Search</button>
          </div>
        </div>
        <div class="field">
          <label for="trails-flow">Flow</label>
          <select id="trails-flow" value={filters.flow} onChange={(e) => filter({ flow: value(e) })}>
            <option value="">Any flow</option>
            {filters.flow && !flowTitle && <option value={filters.flow}>The flow in the address</option>}
            {flows.map((f) => (
              <option key={f.flow_id} value={f.flow_id}>
                {f.flow_title}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="trails-by">Started by</label>
          <select id="trails-by" value={filters.by} onChange={(e) => filter({ by: value(e) })}>
            <option value="">Anyone</option>
            {me && <option value={me.principal_id}>You</option>}
            {filters.by && filters.by !== me?.principal_id && !names.has(filters.by) && <option value={filters.by}>The person in the address</option>}
            {starters.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="trails-from">Started from</label>
          <input id="trails-from" type="date" value={filters.from} onChange={(e) => filter({ from: value(e) })} />
        </div>
        <div class="field">
          <label for="trails-to">Started to</label>
          <input id="trails-to" type="date" value={filters.to} onChange={(e) => filter({ to: value(e) })} />
        </div>
        <fieldset class="field full status-choices">
          <legend>Status (none ticked: any)</legend>
          {TRAIL_STATUSES.map((s) => (
            <label key={s} class="check">
              <input type="checkbox" checked={statuses.includes(s)} onChange={(e) => toggleStatus(s, (e.currentTarget as HTMLInputElement).checked)} />
              {TRAIL_STATUS_WORDS[s]}
            </label>
          ))}
          <label class="check">
            <input type="checkbox" checked={filters.mine === '1'} onChange={(e) => filter({ mine: (e.currentTarget as HTMLInputElement).checked ? '1' : '' })} />
            Waiting for me
          </label>
        </fieldset>
        <p class="full actions-inline">
          <a href={api.trailsCsvHref(queryOf(filters))} download="trails.csv">
            Download CSV
          </a>
          <span class="muted"> (up to {LIMITS.trailExportRows.toLocaleString()} trails, the most recently changed)</span>
          {filtered && (
            <>
              {' · '}
              <a href={href('/trails')}>Clear the filters</a>
            </>
          )}
        </p>
      </form>
      {failed && (
        <p role="alert" class="error-summary">
          {failed}
        </p>
      )}
      {!trails && !failed && <p class="loading">Loading…</p>}
      {trails && (
        <>
          <p class="counts" role="status">
            {trails.length === 0
              ? searchedBack
                ? 'No trail among the most recent matches these filters yet.'
                : filtered
                  ? 'No trail matches these filters.'
                  : 'No trails yet: start one from a flow.'
              : `Showing ${trails.length} ${trails.length === 1 ? 'trail' : 'trails'}${cursor ? '; more may follow' : ''}.`}
          </p>
          {searchedBack && (
            <p class="notice">
              Searched the trails changed since {when(searchedBack)}; older ones may match too. Search further back, or narrow the filters (a flow, a date range).
            </p>
          )}
          {trails.length > 0 && (
            <table class="trails-table">
              <caption class="visually-hidden">Trails, the most recently changed first</caption>
              <thead>
                <tr>
                  <th scope="col">Trail</th>
                  <th scope="col">Flow</th>
                  <th scope="col">Status</th>
                  <th scope="col">Current step</th>
                  <th scope="col">Started by</th>
                  <th scope="col">Started</th>
                  <th scope="col">Last change</th>
                </tr>
              </thead>
              <tbody>
                {trails.map((t) => (
                  <Row key={t.trail_id} trail={t} names={names} />
                ))}
              </tbody>
            </table>
          )}
          {cursor && (
            <button
              type="button"
              disabled={more}
              onClick={() => {
                setMore(true);
                load(cursor)
                  .catch((e: unknown) => setFailed(refusalInWords(e)))
                  .finally(() => setMore(false));
              }}
            >
              {searchedBack ? 'Search further back' : 'Show more trails'}
            </button>
          )}
        </>
      )}
      {filters.flow && <Report flowId={filters.flow} />}
    </>
  );
}
