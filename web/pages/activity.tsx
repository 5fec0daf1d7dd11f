/**
 * The account's changes for an Admin (issue 26: "see what anyone changed"), newest first, a page at a time, filtered
 * by what changed, how, who changed it and when; each said in words: who, what to which resource, when. A
 * scope-limited Admin sees its scope's changes and the account level's (list_history's visibility).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import * as api from '../api.js';
import { EVENT_RESOURCE_TYPES, type EventResourceType } from '../../src/store/enums.js';
import { OPERATION_WORDS, RESOURCE_WORDS, refusalInWords, resourcePath, whatWasDone, whoDid, withNamesOf, type Names } from '../components/change-words.js';
import { when } from '../components/loaded.js';
import { scopeInWords, useScopes } from '../components/scopes.js';
import { useMe } from '../me.js';
import { href, navigate, type Params } from '../router.js';

const PAGE = 25;

/** The resources whose revisions a person can open (get_revision's types): a session's or a key's count says nothing. */
const REVISED: readonly api.Revised[] = ['bit', 'flow', 'reference'];

const isResourceType = (t: string): t is EventResourceType => (EVENT_RESOURCE_TYPES as readonly string[]).includes(t);

/** A day picked in a date field (YYYY-MM-DD), as the instant it starts where the person is; undefined when not a day. */
function startOfDay(day: string, plusDays = 0): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return undefined;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

interface Filters {
  type: string;
  op: string;
  who: string;
  from: string;
  to: string;
}

function Change({ event, names, titles }: { event: api.EventView; names: Names; titles: ReadonlyMap<string, string> }) {
  const me = useMe();
  const what = whatWasDone(event);
  const path = resourcePath(event.resource_type, event.resource_id);
  const title = titles.get(event.resource_id);
  const noun = RESOURCE_WORDS[event.resource_type].one;
  const resource = title ? (
    <>
      {noun} {path ? <a href={href(path)}>{title}</a> : `“${title}”`}
    </>
  ) : path ? (
    <a href={href(path)}>{noun}</a>
  ) : (
    noun
  );
  return (
    <li class="activity-item">
      <p class="activity-what">
        <strong>{whoDid(event, names, me)}</strong> {what.verb}
        {!what.alone && <> {resource}</>}
      </p>
      <p class="muted">
        <time dateTime={event.occurred_date_time_utc}>{when(event.occurred_date_time_utc)}</time>
        {event.revision !== null && (REVISED as readonly string[]).includes(event.resource_type) && ` · revision ${event.revision}`}
        {event.client_name && ` · through ${event.client_name}`}
      </p>
    </li>
  );
}

function Activity({ params }: { params: Params }) {
  const me = useMe();
  const scopes = useScopes();
  const filters: Filters = { type: params['?type'] ?? '', op: params['?op'] ?? '', who: params['?who'] ?? '', from: params['?from'] ?? '', to: params['?to'] ?? '' };
  const [events, setEvents] = useState<api.EventView[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [more, setMore] = useState(false);
  const [names, setNames] = useState<Names>(new Map());
  // null until read: the changes are shown once their titles are known, so no sentence changes under the reader.
  const [titles, setTitles] = useState<ReadonlyMap<string, string> | null>(null);

  const query = (after?: string): api.HistoryQuery => ({
    resource_type: isResourceType(filters.type) ? filters.type : undefined,
    operation: filters.op || undefined,
    principal_id: filters.who || undefined,
    since: startOfDay(filters.from),
    until: startOfDay(filters.to, 1),
    limit: PAGE,
    cursor: after,
  });
  // Each load is numbered: the answer of one that a later filter change superseded is dropped, not shown.
  const latestLoad = useRef(0);
  const load = async (after?: string) => {
    const number = ++latestLoad.current;
    const page = await api.history(query(after));
    const known = await withNamesOf(page.events, names, me);
    if (number !== latestLoad.current) return;
    setNames(known);
    setEvents((before) => (after && before ? [...before, ...page.events] : page.events));
    setCursor(page.next_cursor);
  };

  useEffect(() => {
    setEvents(null);
    setFailed(null);
    load().catch((e: unknown) => setFailed(refusalInWords(e)));
  }, [filters.type, filters.op, filters.who, filters.from, filters.to]);
  // The titles of the flows and the bits changed last: one call each, for the whole visit.
  useEffect(() => {
    void Promise.all([api.flows().catch(() => ({ flows: [] })), api.bits({ status: 'any' }).catch(() => ({ bits: [] }))]).then(([f, b]) =>
      setTitles(new Map([...f.flows.map((x) => [x.flow_id, x.flow_title] as const), ...b.bits.map((x) => [x.bit_id, x.bit_title] as const)])),
    );
  }, []);

  // The filters as the address holds them now, not as this render saw them: a change made right after a
  // navigation (Show every change) must not bring back what the navigation cleared.
  const filter = (change: Partial<Filters>) => {
    const shown = new URLSearchParams(window.location.hash.split('?')[1] ?? '');
    const now: Filters = { type: shown.get('type') ?? '', op: shown.get('op') ?? '', who: shown.get('who') ?? '', from: shown.get('from') ?? '', to: shown.get('to') ?? '' };
    const next = { ...now, ...change };
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(next)) if (v) q.set(k, v);
    const text = q.toString();
    navigate(text ? `/activity?${text}` : '/activity');
  };
  const value = (e: Event) => (e.currentTarget as HTMLInputElement | HTMLSelectElement).value;
  const people = [...names.values()].filter((p) => p.principal_id !== me?.principal_id).sort((a, b) => a.name.localeCompare(b.name));
  const filtered = Object.values(filters).some((v) => v !== '');

  return (
    <>
      <h1>Activity</h1>
      <p>Every change you may see{me?.account_name ? ` in ${me.account_name}` : ''}{me?.scope_id ? ` (your scope${scopes.some((x) => x.scope_id === me.scope_id) ? ` ${scopeInWords(me.scope_id, scopes)}` : ''} and the account level)` : ''}, newest first.</p>
      <form class="filters" aria-label="Filter the changes" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="activity-type">What changed</label>
          <select id="activity-type" value={filters.type} onChange={(e) => filter({ type: value(e) })}>
            <option value="">Anything</option>
            {EVENT_RESOURCE_TYPES.map((t) => (
              <option key={t} value={t}>
                {RESOURCE_WORDS[t].all}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="activity-op">Change</label>
          <select id="activity-op" value={filters.op} onChange={(e) => filter({ op: value(e) })}>
            <option value="">Any change</option>
            {Object.entries(OPERATION_WORDS)
              .sort(([, a], [, b]) => a.label.localeCompare(b.label))
              .map(([op, words]) => (
                <option key={op} value={op}>
                  {words.label}
                </option>
              ))}
          </select>
        </div>
        <div class="field">
          <label for="activity-who">Who</label>
          <select id="activity-who" value={filters.who} onChange={(e) => filter({ who: value(e) })}>
            <option value="">Anyone</option>
            {me && <option value={me.principal_id}>You</option>}
            {people.map((p) => (
              <option key={p.principal_id} value={p.principal_id}>
                {p.kind === 'agent' ? `${p.name} (an agent)` : p.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="activity-from">From</label>
          <input id="activity-from" type="date" value={filters.from} onChange={(e) => filter({ from: value(e) })} />
        </div>
        <div class="field">
          <label for="activity-to">To</label>
          <input id="activity-to" type="date" value={filters.to} onChange={(e) => filter({ to: value(e) })} />
        </div>
        {filtered && (
          <p class="full">
            <a href={href('/activity')}>Show every change</a>
          </p>
        )}
      </form>
      {failed && (
        <p role="alert" class="error-summary">
          {failed}
        </p>
      )}
      {(!events || !titles) && !failed && <p class="loading">Loading…</p>}
      {events && titles && (
        <>
          <p class="counts" role="status">
            {events.length === 0
              ? filtered
                ? 'No change matches these filters.'
                : 'No changes yet.'
              : `Showing ${events.length} ${events.length === 1 ? 'change' : 'changes'}${cursor ? '; older ones follow' : ''}.`}
          </p>
          {events.length > 0 && (
            <ol class="activity" aria-label="Changes, newest first">
              {events.map((e) => (
                <Change key={e.event_id} event={e} names={names} titles={titles} />
              ))}
            </ol>
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
              Show older changes
            </button>
          )}
        </>
      )}
    </>
  );
}

/** Admins only, as the navigation shows it; anyone else who opens it is told why it is empty for them. */
export function ActivityPage({ params }: { params: Params }) {
  const me = useMe();
  if (me?.permission !== 'admin') {
    return (
      <>
        <h1>Activity</h1>
        <p class="notice">
          The account's activity is for Admins. A bit's or a flow's own changes are in the History on its page; ask an Admin of your account for anything else.
        </p>
      </>
    );
  }
  return <Activity params={params} />;
}
