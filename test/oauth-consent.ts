/**
 * The OAuth authorization-code flow driven over plain HTTP, without a browser engine: a client registers
 * (RFC 7591), a person's cookie jar (web-client.ts's Browser, signed in with a sign-in link) follows
 * /oauth/authorize to the consent page, answers it, and the client exchanges the code (PKCE S256). The
 * server's real pages and cookies are used; only the rendering is skipped, so a test can run many flows.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Services } from '../src/services/index.js';
import { Browser } from './web-client.js';
import { REDIRECT_URI } from './oauth-flow.js';

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  scope?: string;
}

/** Where /oauth/authorize led: back to the client (a code or an error), or a page of this server. */
export type AuthorizeOutcome = { kind: 'redirect'; url: URL } | { kind: 'page'; status: number; uid: string | null; html: string };

export async function registerClient(origin: string, metadata: Record<string, unknown> = {}): Promise<string> {
  const response = await fetch(new URL('/oauth/register', origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test app', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], ...metadata }),
  });
  if (response.status !== 201) throw new Error(`registration answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { client_id: string }).client_id;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(origin: string, resource: string, clientId: string, scope: string, challenge: string): URL {
  const url = new URL('/oauth/authorize', origin);
  url.search = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, scope, state: 's', resource, code_challenge: challenge, code_challenge_method: 'S256' }).toString();
  return url;
}

/** Follows this server's redirects from `url` with the jar's cookies until the client's redirect URI or a page. */
export async function follow(browser: Browser, url: URL | string, init: RequestInit = {}): Promise<AuthorizeOutcome> {
  let next = new URL(url, browser.origin);
  let request = init;
  for (let hop = 0; hop < 10; hop++) {
    const response = await browser.fetch(`${next.pathname}${next.search}`, request);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.arrayBuffer();
      next = new URL(location, next);
      if (next.href.startsWith(REDIRECT_URI)) return { kind: 'redirect', url: next };
      request = {};
      continue;
    }
    const uid = /^\/oauth\/interaction\/([^/]+)$/.exec(next.pathname)?.[1] ?? null;
    return { kind: 'page', status: response.status, uid, html: await response.text() };
  }
  throw new Error(`too many redirects from ${String(url)}`);
}

/** Answers the consent page `uid` with the capabilities ticked (the form's checkboxes), back to the client. */
export async function confirm(browser: Browser, uid: string, capabilities: string[]): Promise<AuthorizeOutcome> {
  const body = new URLSearchParams(capabilities.map((c): [string, string] => ['capability', c])).toString();
  return follow(browser, `/oauth/interaction/${uid}/confirm`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
}

export async function exchange(origin: string, resource: string, clientId: string, code: string, verifier: string): Promise<Tokens> {
  const response = await fetch(new URL('/oauth/token', origin), {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT_URI, resource }),
  });
  if (response.status !== 200) throw new Error(`token exchange answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Tokens;
}

/** A person's cookie jar, signed in with a sign-in link of these capabilities (the link's default when omitted). */
export async function signedInJar(services: Services, origin: string, principalId: string, capabilities?: string[]): Promise<Browser> {
  const link = await services.signin.createLink({ principalId, capabilities });
  const browser = new Browser(origin);
  const res = await browser.open(`${origin}/app/signin?token=${encodeURIComponent(link.token)}`);
  if (res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
  await browser.me();
  return browser;
}

/**
 * The whole flow for one app: register, authorize as the jar's person, tick `tick` (every capability the
 * page offers when omitted), exchange the code. Answers the tokens and what the consent page showed.
 */
export async function connectApp(
  browser: Browser,
  resource: string,
  options: { scope?: string; tick?: string[]; clientId?: string } = {},
): Promise<{ clientId: string; tokens: Tokens; consentHtml: string }> {
  const origin = browser.origin;
  const clientId = options.clientId ?? (await registerClient(origin));
  const { verifier, challenge } = pkce();
  const first = await follow(browser, authorizeUrl(origin, resource, clientId, options.scope ?? 'waymark.read waymark.author waymark.run', challenge));
  if (first.kind !== 'page' || first.uid === null) throw new Error(`expected the consent page, got ${first.kind === 'redirect' ? first.url.href : first.status}`);
  const offered = [...first.html.matchAll(/name="capability" value="([^"]+)"/g)].map((m) => m[1] as string);
  const back = await confirm(browser, first.uid, options.tick ?? offered);
  if (back.kind !== 'redirect') throw new Error(`consent did not go back to the client: ${back.status} ${back.html.slice(0, 300)}`);
  const code = back.url.searchParams.get('code');
  if (!code) throw new Error(`no code: ${back.url.href}`);
  return { clientId, tokens: await exchange(origin, resource, clientId, code, verifier), consentHtml: first.html };
}
