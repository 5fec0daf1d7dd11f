/** The shell: who is signed in, the navigation, and the page the hash names. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { me, signOut, whenSignedOut, type Me } from './api.js';
import { MeContext } from './me.js';
import { NotificationBell } from './components/notification-bell.js';
import { InboxPage } from './pages/inbox.js';
import { SignInNotice } from './pages/signin-notice.js';
import { href, matchPath, usePath, type Page, type Params, type Route } from './router.js';

const ROUTES: Route[] = [
  { pattern: '/', load: async () => InboxPage },
  { pattern: '/trails', load: async () => (await import('./pages/trails.js')).TrailsPage },
  { pattern: '/trails/:trail_id/step', load: async () => (await import('./pages/step.js')).StepPage },
  { pattern: '/trails/:trail_id', load: async () => (await import('./pages/trail.js')).TrailPage },
  { pattern: '/flows', load: async () => (await import('./pages/flows.js')).FlowsPage },
  { pattern: '/flows/:flow_id/start', load: async () => (await import('./pages/start-trail.js')).StartTrailPage },
  { pattern: '/flows/:flow_id', load: async () => (await import('./pages/flow.js')).FlowPage },
  { pattern: '/bits/:bit_id', load: async () => (await import('./pages/bit.js')).BitPage },
  { pattern: '/references', load: async () => (await import('./pages/references.js')).ReferencesPage },
  { pattern: '/activity', load: async () => (await import('./pages/activity.js')).ActivityPage },
  { pattern: '/webhooks', load: async () => (await import('./pages/webhooks.js')).WebhooksPage },
  { pattern: '/notifications', load: async () => (await import('./pages/notifications.js')).NotificationsPage },
  { pattern: '/settings', load: async () => (await import('./pages/settings.js')).SettingsPage },
  { pattern: '/groups', load: async () => (await import('./pages/groups.js')).GroupsPage },
  { pattern: '/people', load: async () => (await import('./pages/people.js')).PeoplePage },
];

function resolve(path: string): { route: Route; params: Params } | null {
  for (const route of ROUTES) {
    const params = matchPath(route.pattern, path);
    if (params) return { route, params };
  }
  return null;
}

function Routed({ path }: { path: string }) {
  const found = resolve(path);
  const [page, setPage] = useState<{ path: string; Page: Page } | null>(null);
  useEffect(() => {
    let live = true;
    if (found) void found.route.load().then((Page) => live && setPage({ path, Page }));
    return () => {
      live = false;
    };
  }, [path]);
  if (!found) return <h1>No such page</h1>;
  if (!page || page.path !== path) return <p class="loading">Loading…</p>;
  return <page.Page params={found.params} />;
}

/** The sections; Activity, the account's changes (issue 26), Webhooks (issue 29) and Groups (issue 27) only for an Admin. */
const NAV: Array<{ path: string; label: string; admin?: true }> = [
  { path: '/', label: 'Inbox' },
  { path: '/trails', label: 'Trails' },
  { path: '/flows', label: 'Flows' },
  { path: '/references', label: 'References' },
  { path: '/activity', label: 'Activity', admin: true },
  { path: '/webhooks', label: 'Webhooks', admin: true },
  { path: '/groups', label: 'Groups', admin: true },
  { path: '/people', label: 'People', admin: true },
];

export function App() {
  const [who, setWho] = useState<Me | 'signed-out' | 'loading'>('loading');
  const [problem, setProblem] = useState<string | null>(null);
  const path = usePath();
  const main = useRef<HTMLElement>(null);
  useEffect(() => {
    whenSignedOut(() => setWho('signed-out'));
    me().then(setWho, (e: { status?: number; message?: string }) => (e.status === 401 ? setWho('signed-out') : setProblem(e.message ?? String(e))));
  }, []);
  // A new page takes the focus, so a keyboard or screen-reader user starts at its top.
  useEffect(() => {
    main.current?.focus({ preventScroll: true });
  }, [path]);
  if (problem) return <p role="alert">The app could not start: {problem}</p>;
  if (who === 'loading') return <p class="loading">Loading…</p>;
  if (who === 'signed-out') return <SignInNotice />;
  const section = path === '/' ? '/' : `/${path.split('/')[1]?.split('?')[0]}`;
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), main.current?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={href('/')}>
          Waymark
        </a>
        <nav aria-label="Main">
          <ul>
            {NAV.filter((n) => !n.admin || who.permission === 'admin').map((n) => (
              <li key={n.path}>
                <a href={href(n.path)} aria-current={section === n.path ? 'page' : undefined}>
                  {n.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <NotificationBell current={section === '/notifications'} />
          <span class="muted">{who.name ?? who.principal_id}</span>
          <a href={href('/settings')} aria-current={section === '/settings' ? 'page' : undefined}>
            Settings
          </a>
          {/* Server-rendered: the apps and tokens that act as this person, each revocable (issue 12). */}
          <a href="/oauth/grants">Connected apps</a>
          <button
            type="button"
            class="link"
            onClick={() =>
              void signOut().then(
                () => setWho('signed-out'),
                () => setWho('signed-out'),
              )
            }
          >
            Sign out
          </button>
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        <MeContext.Provider value={who}>
          <Routed path={path} />
        </MeContext.Provider>
      </main>
    </>
  );
}
